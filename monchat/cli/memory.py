"""``monchat memory …``: list, show and change memories and the review queue (MemoryService)."""

from __future__ import annotations

import json

from ..core.errors import InputError
from ..core.memory import Kind, State, Verdict
from ..core.memory.review_item import ReviewItem
from .flush import TIER_WORDS

# A state in the window's plain words (gui/memory/memory_words.py ``state_name``) where the program's name is not
# one; ``--json`` keeps the states as they are.
STATE_WORDS = {State.QUEUED: "for review", State.SUPERSEDED: "replaced", State.RETRACTED: "taken back",
               State.RETRACTION: "taking back"}
LAYER_WORDS = {1: "lasting", 2: "recent"}


def state_words(state: str) -> str:
    return STATE_WORDS.get(state, state)

MEMORY_ACTIONS = ("list", "show", "history", "approve", "reject", "edit", "forget", "restore", "delete", "pin",
                  "unpin", "queue", "budget", "rate", "pause", "resume", "never")


def register(sub) -> None:
    p = sub.add_parser("memory", help="list, show and change memories")
    p.add_argument("action", choices=MEMORY_ACTIONS)
    p.add_argument("id", nargs="?", help="memory id (mem-…) or review item number; never: list, add, remove, "
                   "matches or forget")
    p.add_argument("text", nargs="*", help="new text (edit); up, down or none (rate); never add|remove: the rule; "
                   "more item numbers (approve, reject)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--all", action="store_true", help="list: every memory, history included; approve/reject: "
                   "every item waiting for review")
    p.add_argument("--as", dest="verdict", choices=[str(v) for v in Verdict],
                   type=str.upper,
                   help="approve: apply this verdict to an unsure judgement instead of the judge's leaning")
    p.set_defaults(run=cmd_memory)


def _proposed_by(row: ReviewItem) -> str:
    """Which filter personas proposed a review row (one row, however many proposed the same change)."""
    return f" (proposed by {', '.join(row.proposers)})" if row.proposers else ""


def _queue_lines(groups: list[list[ReviewItem]], replaces: bool = False) -> list[str]:
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
    return lines


def _memory_line(data: dict) -> str:
    layer = LAYER_WORDS.get(data["layer"], "-")
    pin = " pinned" if data["pinned"] else ""
    return f"{data['id']}  {layer:7} {state_words(data['state']):11} {data['slot']:18} {data['text']}{pin}"


def _need_id(args) -> str:
    if not args.id:
        raise InputError(f"memory {args.action} needs an id.", "See `monchat memory list --all` for ids.")
    return args.id


def cmd_memory(app, args) -> int:
    memory = app.memory
    action = args.action
    out = None
    if action in ("pause", "resume", "never"):  # the user's own controls (cli/privacy.py)
        from .privacy import cmd_memory_privacy
        return cmd_memory_privacy(app, args)
    if action == "list":
        records = memory.to_dicts(memory.list(all=args.all))
        queue = memory.queue()
        if args.json:
            out = records
        else:
            if not records:
                print("No memories yet." if not args.all else "No memories at all yet.")
            for data in records:
                print(_memory_line(data))
            if queue:
                print("\nWaiting for your review (approve/reject by number or memory id):")
                for line in _queue_lines(memory.queue_groups(), replaces=True):
                    print(f"  {line}")
            return 0
    elif action == "queue":
        groups = memory.queue_groups()
        out = [{**row.as_dict(), "alike": [r.id for r in group]} for group in groups for row in group]
        if not args.json:
            for line in _queue_lines(groups):
                print(line)
            return 0
    elif action == "budget":
        out = memory.budget_report()
        if not args.json:
            print(f"{out.get('used_tokens', 0)} of {out.get('budget_tokens', '?')} tokens; "
                  f"{out.get('included', 0)} memories in the prompt; pinned memories take "
                  f"{out.get('pinned_tokens', 0)} tokens")
            if out.get("pinned_over_budget"):  # pinned lines stay in the prompt whatever the budget says
                print("  pinned memories are over the budget: they stay in the prompt; unpin some or raise "
                      "flush.memory_token_budget")
            for left in out.get("left_out", []):
                print(f"  left out: {left['id']} {left['text']} — {left['reason']}")
            return 0
    elif action == "show":
        m = memory.get(_need_id(args))
        out = memory.to_dict(m)
        out["evidence_messages"] = memory.evidence(m.id)
        out["rating"] = memory.rating(m.id)
        out["events"] = memory.events(m.id)
        if not args.json:
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
            return 0
    elif action == "history":
        chain = memory.history(_need_id(args))
        out = memory.to_dicts(chain)
        if not args.json:
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
    elif action in ("approve", "reject"):
        refs = [str(r.id) for r in memory.queue()] if args.all else [_need_id(args), *args.text]
        if len(refs) == 1 and not args.all:
            rows = [memory.approve(refs[0], verdict=args.verdict) if action == "approve" else memory.reject(refs[0])]
        else:  # several at once (`monchat memory reject 3 4 5`, or --all): one transaction
            rows = memory.decide_many(refs, approve=action == "approve")
        result = "approved" if action == "approve" else "rejected"
        out = [{"queue": row.id, "memory_id": row.memory_id, "action": row.action, "result": result}
               for row in rows]
        out = out[0] if len(out) == 1 and not args.all else out
        if not args.json:
            for row in rows:
                print(f"{result}: #{row.id} {row.action} {row.memory_id} {row.text}")
            return 0
    elif action == "rate":
        from .feedback import memory_rate
        out = memory_rate(memory, args)
        if not args.json:
            return 0
    elif action == "edit":
        text = " ".join(args.text)
        new = memory.edit(_need_id(args), text)
        out = memory.to_dict(new)
        if not args.json:
            print(f"{args.id} → {new.id}: {new.text}")
            return 0
    elif action == "delete":
        deleted = memory.delete(_need_id(args))
        out = {"deleted": deleted}
        if not args.json:
            print(f"deleted for good: {', '.join(deleted)} (the archived messages stay)")
            return 0
    elif action in ("forget", "restore", "pin", "unpin"):
        m = getattr(memory, action)(_need_id(args))
        out = memory.to_dict(m)
        if not args.json:
            print(f"{action}: {m.id} [{state_words(m.state)}] {m.text}")
            return 0
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


def _taken_back_because(memory, memory_id: str) -> list[str]:
    """Why the user's taking words back changed a memory: retracted, or one less evidence (``memory/withdraw.py``)."""
    out = []
    for event in memory.events(memory_id):
        detail = json.loads(event["detail"] or "{}")
        if detail.get("why") and event["action"] in ("retracted", "lost evidence"):
            out.append(f"{event['action']} {event['at'][:16]}: {detail['why']}")
    return out
