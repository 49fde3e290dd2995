"""``monchat memory …``: list, show and change memories and the review queue (MemoryService), and the user's own
controls over memory (``memory pause|resume``, ``memory never …``: ``core/memory/pause.py``, ``core/memory/never.py``,
the same calls as the window's Memory menu and Settings → Memory).

Each action is one function below; the action word sets ``run`` to it as the parser reads it (``PickRun``), as a
subcommand's ``set_defaults(run=…)`` does, so ``monchat memory`` keeps one parser and one ``--help``.
"""

from __future__ import annotations

import argparse
import json

from ..core.errors import InputError
from ..core.memory import Kind, State, Verdict
from ..core.memory.review_item import ReviewItem
from ..core.vocabulary.states import Held
from .memory_cut import memory_cut, memory_queue_cut
from .output import print_json, print_result
from .words import RATING_WORDS, TIER_WORDS

# A state in the window's plain words (gui/memory/memory_words.py ``state_name``) where the program's name is not
# one; ``--json`` keeps the states as they are.
STATE_WORDS = {State.QUEUED: "for review", State.SUPERSEDED: "replaced", State.RETRACTED: "taken back",
               State.RETRACTION: "taking back"}
LAYER_WORDS = {1: "lasting", 2: "recent"}
NEVER_ACTIONS = ("list", "add", "remove", "matches", "forget")


def state_words(state: str) -> str:
    return STATE_WORDS.get(state, state)


class PickRun(argparse.Action):
    """The action word: it sets ``run`` to that action's function (``RUNS``) when the parser reads it."""

    def __call__(self, parser, namespace, value, option_string=None) -> None:
        setattr(namespace, self.dest, value)
        namespace.run = RUNS[value]


def register(sub) -> None:
    p = sub.add_parser("memory", help="list, show and change memories")
    p.add_argument("action", choices=MEMORY_ACTIONS, action=PickRun)
    p.add_argument("id", nargs="?", help="memory id (mem-…) or review item number; never: list, add, remove, "
                   "matches or forget; cut, queue-cut: a flush's number")
    p.add_argument("text", nargs="*", help="new text (edit); up, down or none (rate); never add|remove: the rule; "
                   "more item numbers (approve, reject); queue-cut: the numbers `memory cut` shows (none: all)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--all", action="store_true", help="list: every memory, history included; approve/reject: "
                   "every item waiting for review")
    p.add_argument("--as", dest="verdict", choices=[str(v) for v in Verdict],
                   type=str.upper,
                   help="approve: apply this verdict to an unsure judgement instead of the judge's leaning")
    p.set_defaults(run=cmd_memory)


def cmd_memory(app, args) -> int:
    """Run the action ``args`` names (for a caller that holds parsed arguments; the parser sets ``run`` itself)."""
    return RUNS[args.action](app, args)


def _proposed_by(row: ReviewItem) -> str:
    """Which filter personas proposed a review row (one row, however many proposed the same change)."""
    if row.held == Held.IMPORTED:  # the reason names the source already ("imported from ChatGPT"): once
        return ""
    return f" (proposed by {', '.join(row.proposers)})" if row.proposers else ""


def _queue_lines(groups: list[list[ReviewItem]], replaces: bool = False, again: dict | None = None) -> list[str]:
    """One line per change waiting: near-duplicates (``MemoryService.queue_groups``) once, with how many and
    every number, so `monchat memory reject 3 5 8` decides them together."""
    lines = []
    for group in groups:
        row = group[0]
        was = f" (replaces: {row.old_text})" if replaces and row.old_text else ""
        alike = (f" ×{len(group)} (alike: {' '.join('#' + str(r.id) for r in group)})"
                 if len(group) > 1 else "")
        lines.append(f"#{row.id} {row.action:9} {row.memory_id}  {row.text}{was}{alike} — "
                     f"{row.reason}{_proposed_by(row)}")
        lines += _quoted_lines(row.quoted)
        heard = {line["message_id"]: line for member in group  # any alike item's, each line once
                 for line in (again or {}).get(member.memory_id, [])}
        for line in sorted(heard.values(), key=lambda line: line["ts"]):  # the user said it again while it waited
            lines.append(f"    said again on {line['ts'][:10]}: “{line['text']}”")
    return lines


QUOTED = "quoted in the file you imported, not said here:"


def _quoted_lines(quoted: list[dict]) -> list[str]:
    """The lines an imported item's file quotes, marked as what they are (issue 36: never the user's words here)."""
    if not quoted:
        return []
    dated = [f" (the file dates it {q['said_at'][:16]})" if q.get("said_at") else "" for q in quoted]
    return [f"    {QUOTED}"] + [f"      “{q['text']}”{when}" for q, when in zip(quoted, dated)]


def _memory_line(data: dict) -> str:
    layer = LAYER_WORDS.get(data["layer"], "-")
    pin = " pinned" if data["pinned"] else ""
    return f"{data['id']}  {layer:7} {state_words(data['state']):11} {data['slot']:18} {data['text']}{pin}"


def _need_id(args) -> str:
    if not args.id:
        raise InputError(f"memory {args.action} needs an id.", "See `monchat memory list --all` for ids.")
    return args.id


# ---- reading ----------------------------------------------------------------------------------------------------
def memory_list(app, args) -> int:
    memory = app.memory
    records = memory.to_dicts(memory.list(all=args.all))
    queue = memory.queue()
    if args.json:
        return print_json(records)
    if not records:
        print("No memories yet." if not args.all else "No memories at all yet.")
    for data in records:
        print(_memory_line(data))
    if queue:
        print("\nWaiting for your review (approve/reject by number or memory id):")
        for line in _queue_lines(memory.queue_groups(), replaces=True):
            print(f"  {line}")
    return 0


def memory_queue(app, args) -> int:
    from ..core.memory.waiting import said_again
    groups = app.memory.queue_groups()
    again = {row.memory_id: said_again(app.memory.memories, app.archive, row.memory_id)
             for group in groups for row in group}
    out = [{**row.as_dict(), "alike": [r.id for r in group], "origin": str(row.origin),
            "said_again": again[row.memory_id]} for group in groups for row in group]
    if args.json:
        return print_json(out)
    for line in _queue_lines(groups, again=again) or ["Nothing waits for your review."]:
        print(line)
    return 0


def memory_budget(app, args) -> int:
    out = app.memory.budget_report()
    if args.json:
        return print_json(out)
    print(f"{out.get('used_tokens', 0)} of {out.get('budget_tokens', '?')} tokens; "
          f"{out.get('included', 0)} memories in the prompt; pinned memories take "
          f"{out.get('pinned_tokens', 0)} tokens")
    if out.get("pinned_over_budget"):  # pinned lines stay in the prompt whatever the budget says
        print("  pinned memories are over the budget: they stay in the prompt; unpin some or raise "
              "flush.memory_token_budget")
    for left in out.get("left_out", []):
        print(f"  left out: {left['id']} {left['text']} — {left['reason']}")
    return 0


def memory_show(app, args) -> int:
    memory = app.memory
    m = memory.get(_need_id(args))
    out = memory.to_dict(m)
    out["evidence_messages"] = memory.evidence(m.id)
    out["quoted"] = app.transfer.quoted(m.id)  # what the file it came from quoted: not said here
    out["rating"] = memory.rating(m.id)
    out["events"] = memory.events(m.id)
    if args.json:
        return print_json(out)
    print(_memory_line(out))
    print(f"  kind {out['kind']}, confidence {out['confidence']:.2f}, {out['days']} day(s) of evidence, "
          f"{out['contradictions']} contradiction(s); valid {out['valid_at'] or '?'}"
          + (f" until {out['invalid_at']}" if out["invalid_at"] else ""))
    if out["superseded_by"]:
        print(f"  replaced by {out['superseded_by']}")
    digest = out["digest"]
    print(f"  talked about: {TIER_WORDS.get(out['tier'], out['tier'])}"
          + (f"; summed up in {digest['id']}: {digest['text']}" if digest else ""))
    for ev in out["evidence_messages"]:
        flag = " (contradicts)" if ev["contradicts"] else ""
        print(f"  ← {ev['ts'][:16]} {ev['role']}: {ev['text']}{flag}")
    for line in _quoted_lines(out["quoted"]):
        print(line[2:])
    return 0


def memory_history(app, args) -> int:
    memory = app.memory
    chain = memory.history(_need_id(args))
    out = memory.to_dicts(chain)
    if args.json:
        return print_json(out)
    for n, data in enumerate(out):
        arrow = "   " if n == 0 else "→  "
        until = f" until {data['invalid_at'][:16]}" if data["invalid_at"] else ""
        version = (f" v{data['version']} weight {data['weight']:.2f}"
                   if data["kind"] == Kind.PREFERENCE else "")
        print(f"{arrow}{data['id']} [{state_words(data['state'])}{version}] {data['text']} "
              f"(from {(data['valid_at'] or '?')[:16]}{until})")
        for why in _taken_back_because(memory, data["id"]):  # a message it rested on was deleted or edited
            print(f"     {why}")
        if data["digest"]:  # one-way: the original row stays, the digest points to it
            digest = data["digest"]
            print(f"     in digest {digest['id']}: {digest['text']} (covers {', '.join(digest['covers'])})")
    return 0


def _taken_back_because(memory, memory_id: str) -> list[str]:
    """Why the user's taking words back changed a memory: retracted, or one less evidence (``memory/withdraw.py``)."""
    out = []
    for event in memory.events(memory_id):
        detail = json.loads(event["detail"] or "{}")
        if detail.get("why") and event["action"] in ("retracted", "lost evidence"):
            out.append(f"{event['action']} {event['at'][:16]}: {detail['why']}")
    return out


# ---- the review queue ---------------------------------------------------------------------------------------------
def memory_approve(app, args) -> int:
    return _decide(app, args, approve=True)


def memory_reject(app, args) -> int:
    return _decide(app, args, approve=False)


def _row_of(groups: list[list[ReviewItem]], ref: str) -> list[str]:
    """The numbers of the items ``ref`` (a number or a memory id) is shown in one row with (itself alone if none)."""
    group = next((g for g in groups if any(ref in (str(r.id), r.memory_id) for r in g)), None)
    return [str(r.id) for r in group] if group else [ref]


def _decide(app, args, approve: bool) -> int:
    memory = app.memory
    refs = [str(r.id) for r in memory.queue()] if args.all else [_need_id(args), *args.text]
    if not args.all and args.verdict is None:  # a number decides its row: every alike item, as the window does
        refs = list(dict.fromkeys(alike for ref in refs for alike in _row_of(memory.queue_groups(), ref)))
    if len(refs) == 1 and not args.all:
        rows = [memory.approve(refs[0], verdict=args.verdict) if approve else memory.reject(refs[0])]
    else:  # several at once (`monchat memory reject 3 4 5`, or --all): one transaction
        rows = memory.decide_many(refs, approve=approve)
    result = "approved" if approve else "rejected"
    out = [{"queue": row.id, "memory_id": row.memory_id, "action": row.action, "result": result}
           for row in rows]
    out = out[0] if len(out) == 1 and not args.all else out
    if args.json:
        return print_json(out)
    for row in rows:
        print(f"{result}: #{row.id} {row.action} {row.memory_id} {row.text}")
    return 0


def memory_undo(app, args) -> int:
    """Reverse the last approve/reject (a batch counts as one) or merge of duplicates, as the windows' Undo does."""
    from ..core.memory.undo import undo_last
    done = undo_last(app.memory)
    if done.merged and not done.queue_ids:
        line = (f"undone: the merge of {len(done.merged)} memories (merged {done.at[:16]}); "
                f"{', '.join(done.merged)} {'are' if len(done.merged) > 1 else 'is'} back as before")
    else:
        line = (f"undone: {done.approved} approved, {done.rejected} rejected (decided {done.at[:16]}); "
                f"{'they wait' if len(done.queue_ids) > 1 else 'it waits'} for review again")
    return print_result({"approved": done.approved, "rejected": done.rejected, "queue": list(done.queue_ids),
                         "merged": list(done.merged), "decided_at": done.at}, args.json, [line])


def memory_merge_duplicates(app, args) -> int:
    """Put together kept memories that say the same thing, as the Memory window's "Merge duplicates" does."""
    from ..core.memory.merge import merge_duplicates
    merged = merge_duplicates(app.memory)
    return print_result([{"kept": m.kept, "text": m.text, "merged": list(m.merged)} for m in merged], args.json,
                        [f"merged {', '.join(m.merged)} into {m.kept}: {m.text}" for m in merged]
                        or ["No two memories say the same thing: nothing to merge."])


# ---- changing one memory ------------------------------------------------------------------------------------------
def memory_rate(app, args) -> int:
    if not args.id or len(args.text) != 1:
        raise InputError("memory rate needs an id and up, down or none.", "Example: monchat memory rate mem-1a2b up")
    result = app.memory.rate(args.id, args.text[0])
    if args.json:
        return print_json(result)
    review = f" (review item #{result['review']}: approve keeps it)" if result["review"] else ""
    print(f"{args.id}: {RATING_WORDS[result['rating']]}{review}")
    return 0


def memory_edit(app, args) -> int:
    memory = app.memory
    text = " ".join(args.text)
    new = memory.edit(_need_id(args), text)
    if args.json:
        return print_json(memory.to_dict(new))
    print(f"{args.id} → {new.id}: {new.text}")
    return 0


def memory_delete(app, args) -> int:
    deleted = app.memory.delete(_need_id(args))
    if args.json:
        return print_json({"deleted": deleted})
    print(f"deleted for good: {', '.join(deleted)} (the archived messages stay)")
    return 0


def memory_forget(app, args) -> int:
    return _changed(app, args, app.memory.forget)


def memory_restore(app, args) -> int:
    return _changed(app, args, app.memory.restore)


def memory_pin(app, args) -> int:
    return _changed(app, args, app.memory.pin)


def memory_unpin(app, args) -> int:
    return _changed(app, args, app.memory.unpin)


def _changed(app, args, change) -> int:
    m = change(_need_id(args))
    if args.json:
        return print_json(app.memory.to_dict(m))
    print(f"{args.action}: {m.id} [{state_words(m.state)}] {m.text}")
    return 0


# ---- the user's own controls --------------------------------------------------------------------------------------
def memory_pause(app, args) -> int:
    since = app.pause.pause()
    return print_result({"paused": True, "since": since}, args.json,
                        [f"Memory is paused (since {since}): flushes archive your messages and propose nothing. "
                         "`monchat memory resume` turns it back on."])


def memory_resume(app, args) -> int:
    was = app.pause.resume()
    return print_result({"paused": False, "was_paused": was}, args.json,
                        ["Memory is on again: the next flush reads the new messages." if was else
                         "Memory was not paused."])


def memory_never(app, args) -> int:
    action = args.id or "list"
    if action not in NEVER_ACTIONS:
        raise InputError(f"Unknown action {action!r} for `monchat memory never`.",
                         f"Use one of: {', '.join(NEVER_ACTIONS)}.")
    never = app.never
    words = " ".join(args.text)
    if action == "list":
        rules = never.list()
        return print_result(rules, args.json, [f"{r['id']:>3}  {r['text']}" for r in rules] or
                            ["No never-remember rules. Add one with `monchat memory never add TOPIC`."])
    if action == "add":
        rule = never.add(words)
        matches = _matches(never, [rule["text"]])
        lines = [f"Never remember: {rule['text']} (rule {rule['id']}). Every flush drops a proposal that matches it."]
        if matches:
            lines.append(f"{len(matches)} memory(ies) you already have match it:")
            lines += [f"  {m['id']}  {m['text']}" for m in matches]
            lines.append("Forget them with `monchat memory never forget` (`monchat memory restore ID` undoes one).")
        return print_result({"rule": rule, "matching": matches}, args.json, lines)
    if action == "remove":
        if not words:
            raise InputError("Which rule?", "Give its number or its text (`monchat memory never list`).")
        rule = never.remove(words)
        return print_result({"removed": rule}, args.json, [f"Removed the rule: {rule['text']}"])
    if action == "matches":
        matches = _matches(never)
        return print_result(matches, args.json, [f"{m['id']}  {m['text']}  (rule: {m['rule']})" for m in matches] or
                            ["No memory matches a never-remember rule."])
    forgotten = never.forget_matching()
    return print_result({"forgotten": forgotten}, args.json,
                        [f"Forgotten: {', '.join(forgotten)}" if forgotten else
                         "No memory matches a never-remember rule."])


def _matches(never, rules=None) -> list[dict]:
    return [{"id": m.id, "text": m.text, "slot": m.slot, "state": str(m.state), "rule": rule}
            for m, rule in never.matching(rules)]


# Each action's function, in the order `monchat memory --help` lists the actions.
RUNS = {"list": memory_list, "show": memory_show, "history": memory_history, "approve": memory_approve,
        "reject": memory_reject, "edit": memory_edit, "forget": memory_forget, "restore": memory_restore,
        "delete": memory_delete, "pin": memory_pin, "unpin": memory_unpin, "queue": memory_queue,
        "budget": memory_budget, "rate": memory_rate, "pause": memory_pause, "resume": memory_resume,
        "never": memory_never, "undo": memory_undo, "merge-duplicates": memory_merge_duplicates,
        "cut": memory_cut, "queue-cut": memory_queue_cut}
MEMORY_ACTIONS = tuple(RUNS)
