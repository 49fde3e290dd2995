"""``monchat flush``: distil the unflushed logs into memory, and say what each stage changed."""

from __future__ import annotations

import sys

from ..core.flush.accounting import accounting_line
from ..core.vocabulary.states import ChangeKind, DropCategory
from .output import print_json
from .words import TIER_WORDS

# A change's kind in the window's plain words (gui/flush/words.py ``change_name``), short for the terminal's column;
# ``--json`` keeps the kinds as they are (``ChangeKind``).
CHANGE_WORDS = {
    ChangeKind.NEW: "new", ChangeKind.REINFORCED: "reinforced", ChangeKind.MERGED: "merged",
    ChangeKind.SUPERSEDED: "replaced", ChangeKind.RETRACTED: "taken back", ChangeKind.CONTRADICTED: "contradicted",
    ChangeKind.QUEUED: "for review", ChangeKind.LAYER1: "to lasting", ChangeKind.LAYER2: "to recent",
    ChangeKind.PENDING: "set aside", ChangeKind.DORMANT: "dormant", ChangeKind.EXPIRED: "expired"}


def register(sub) -> None:
    p = sub.add_parser("flush", help="distil the unflushed logs into memory")
    p.add_argument("--dry-run", action="store_true", help="show the proposed changes and write nothing")
    p.add_argument("--accept-partial", action="store_true",
                   help="go on when a filter could not read some messages (the run records which)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seed", type=int, help="seed for the random filter persona (recorded either way)")
    p.add_argument("--warm", action="store_true",
                   help="then give the chat's backend the new system prompt (Gemini cache, Ollama load)")
    p.set_defaults(run=cmd_flush)


def _tokens(usage) -> str:
    """The run's tokens: as reported, with what is estimated said so."""
    parts = [f"{usage.total:,} tokens"]
    if usage.cached_tokens:
        parts.append(f"{usage.cached_tokens:,} from the cache")
    if usage.thinking_tokens:
        parts.append(f"{usage.thinking_tokens:,} thinking")
    if usage.estimated_calls:
        parts.append(f"estimated for {usage.estimated_calls} call(s) whose backend reported none")
    if usage.kept:
        parts.append(f"{usage.kept} answer(s) kept from an earlier run")
    return parts[0] + (f" ({', '.join(parts[1:])})" if len(parts) > 1 else "")


def _print_progress(progress) -> None:
    """One line a report; an answer's tokens as they arrive only on a terminal, on one rewritten line."""
    who = f" {progress.persona}" if progress.persona else ""
    line = f"[{progress.stage}{who}] {progress.message}"
    if progress.tokens:
        if sys.stderr.isatty():
            print(f"\r{line}\033[K", end="", file=sys.stderr, flush=True)
        return
    print(f"\r{line}\033[K" if sys.stderr.isatty() else line, file=sys.stderr, flush=True)


def cmd_flush(app, args) -> int:
    from ..core.flush.orient import ROLE_WORDS
    from .consent import ensure_cloud_consent
    ensure_cloud_consent(app)  # a flush sends the logs: asked, as the window asks, before it starts
    flush = app.flush
    report = flush.run(dry_run=args.dry_run, seed=args.seed, accept_partial=args.accept_partial,
                       progress=None if args.json else _print_progress)
    if args.json:
        data = report.to_dict()
        data["gate"] = app.chat.gate().state
        print_json(data)
        _warm(app, args, report)
        return 0
    if report.nothing_to_flush:
        print("Nothing to flush: no new messages in the logs.")
        return 0
    title = "Dry run — nothing was written. Proposed changes:" if report.dry_run else f"Flush {report.run_id} done."
    print(title)
    for note in report.notes:  # first, before the changes it explains
        if getattr(note, "code", "") == "small_model":
            print(f"  warning: {note}")
    personas = ", ".join(f"{p['id']} ({ROLE_WORDS.get(p['role'], p['role'])})" for p in report.personas)
    print(f"  personas: {personas}; seed {report.seed}")
    print(f"  {report.messages_archived} message(s) archived; {report.llm_calls} LLM call(s); "
          f"{_tokens(report.usage)}; {report.duration_s:.1f}s")
    print(f"  lasting memory +{report.promoted['layer1']}, recent memory +{report.promoted['layer2']}, "
          f"replaced {report.superseded}, sent to review {report.queued}"
          f"{f' ({report.unsure} not sure these are your words)' if report.unsure else ''}, "
          f"dropped {len(report.dropped_items)}")
    if report.accounting:  # every proposal, what became of it: the counts add up
        print(f"  {accounting_line(report.accounting)}")
    for change in report.changes:
        old = f"  (was: {change.old_text})" if change.old_text else ""
        print(f"  {CHANGE_WORDS.get(change.kind, change.kind):12} {change.memory_id}  {change.text}{old}")
        for ev in change.evidence:
            print(f"               ← {ev['ts'][:16]} «{ev['text']}»")
    for item in report.dropped_items:
        rule = f" [{item['rule']}]" if item.get("rule") else ""  # the guard's rule (memory/guard.py)
        print(f"  dropped ({item['persona']}){rule}: {item['text'] or '(empty)'} — {item['reason']}")
    cut = report.accounting.get("dropped", {}).get(DropCategory.LIMIT, 0) if report.accounting else 0
    if cut and not report.dry_run:
        print(f"  {cut} proposal(s) over a persona's limit were cut: send them to your review with "
              f"`monchat memory queue-cut {report.run_id}`")
    print_flush_background(report)
    print_flush_lint(report)
    for note in report.notes:
        if getattr(note, "code", "") != "small_model":
            print(f"  note: {note}")
    for error in report.errors:
        print(f"  warning: {error}", file=sys.stderr)
    if report.review_rows and not report.dry_run:  # the rows the queue shows (near-duplicates as one)
        print(f"  {report.review_rows} waiting for your review: see them with `monchat memory queue`, decide with "
              f"`monchat memory approve|reject NUMBER`.")
    if not report.dry_run:
        print(f"gate: {app.chat.gate().state}")
    _warm(app, args, report)
    return 0


def _warm(app, args, report) -> None:
    if args.warm and report.run_id is not None:
        from ..core.chat.warm import warm
        done = warm(app.chat, app.consent)
        print(f"warm start: {done}", file=sys.stderr if args.json else sys.stdout)


def print_flush_background(report) -> None:
    """The background track's lines in a ``monchat flush`` summary: one per layer, what it changed."""
    data = report.background
    if not data:
        return
    for line in layer_lines(data):
        print(f"  {line}")


def _gap(g: dict) -> str:
    return f"{g['kind']} {g['slot']}" + (f" ({g['failures']} failures)" if g["failures"] else "")


def layer_lines(data: dict) -> list[str]:
    """Per layer, what this flush changed (``background/summary.py``), in English for the terminal."""
    layers = data.get("layers") or {}
    lines = []
    reflect = data.get("reflect")
    if reflect is None:
        lines.append("reflect: did not run (nothing found, or background.reflect is off)")
    else:
        lines.append(f"reflect: {len(reflect['insights'])} insight(s), {len(reflect['gaps'])} suspected gap(s)"
                     + (f", {reflect['dropped']} dropped (no known slot)" if reflect["dropped"] else "")
                     + " — `monchat insights`")
        entries = reflect["insights"] + reflect["gaps"]
        lines += [f"  {entry['text']}  [{', '.join(entry['slots'])}]" for entry in entries]
    profile = layers.get("profile") or {"changed": [], "rising": [], "cooling": []}
    changed = ", ".join(f"{e['topic']} {e['count']} ({e['delta']:+d})" for e in profile["changed"])
    lines.append(f"profile: {'this week ' + changed if changed else 'no change this week'}; rising "
                 f"{', '.join(profile['rising']) or '-'}; cooling {', '.join(profile['cooling']) or '-'}")
    days = (layers.get("diary") or {}).get("days") or []
    lines.append(f"diary: {', '.join(days)} — `monchat diary`" if days else "diary: no page written")
    marks = layers.get("gaps") or {"new": [], "raised": []}
    if marks["new"] or marks["raised"]:
        parts = [f"new {_gap(g)}" for g in marks["new"]] + [f"raised {_gap(g)}" for g in marks["raised"]]
        lines.append(f"gaps: {'; '.join(parts)} — `monchat gaps`")
    else:
        lines.append("gaps: none new or raised")
    changes = (layers.get("skills") or {}).get("changes") or []
    if changes:
        lines.append("skills: " + "; ".join(f"{s['name']} " + (f"L{s['from']} → " if s["from"] else "new ")
                                            + f"L{s['to']}" for s in changes))
    else:
        lines.append("skills: no level changed")
    tiers = data.get("tiers")
    if tiers:
        lines.append("talked about: " + ", ".join(f"{n} {TIER_WORDS.get(tier, tier)}"
                                                  for tier, n in tiers["counts"].items()))
        lines += [f"  digest {d['id']} of {d['slot']}: covers {', '.join(d['covers'])}" for d in tiers["digests"]]
    preferences = (layers.get("preferences") or {}).get("changes") or []
    lines.append("preferences: " + ("; ".join(f"{c['change']} {c['text']}" + (f" (was: {c['old_text']})"
                                                                             if c["old_text"] else "")
                                              for c in preferences) if preferences else "no change"))
    drawn = layers.get("graph")
    if drawn:
        found = ", ".join(f"{n} {kind}" for kind, n in sorted(drawn["discoveries"].items())) or "no discovery"
        lines.append(f"graph: {drawn['nodes']} node(s), {drawn['drawn']} edge(s) drawn; {found} — `monchat graph`")
    return lines


def print_flush_lint(report) -> None:
    """The flush summary's lint line (``monchat flush``)."""
    lint = (report.background or {}).get("lint")
    if lint and any(lint[key] for key in ("marked", "confirmed", "applied", "resolved")):
        print(f"  lint: {lint['marked']} new, {lint['confirmed']} rechecked, {lint['applied']} queued for review, "
              f"{lint['resolved']} resolved (`monchat lint` lists them)")
