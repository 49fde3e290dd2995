"""``monchat memory cut RUN`` and ``monchat memory queue-cut RUN [N …]``: what a persona's limit cut at a flush
(``core/flush/cut.py``), and sending it to the review queue. Two actions of ``monchat memory`` (``cli/memory.py``)."""

from __future__ import annotations

from ..core.errors import InputError
from .output import print_result


def _run_number(args) -> int:
    if not args.id or not args.id.isdigit():
        raise InputError(f"memory {args.action} needs a flush's number.",
                         "`monchat flush` ends with it (\"Flush 12 done.\"); `monchat flush --json` has it as run_id.")
    return int(args.id)


def memory_cut(app, args) -> int:
    """What a persona's limit cut at a flush (``core/flush/cut.py``), numbered for ``queue-cut``."""
    from ..core.flush.cut import cut_items
    run_id = _run_number(args)
    cut = cut_items(app.memory, run_id)
    lines = [f"{c['number']:>3}  {c['day'] or '?':10} {c['slot']:18} {c['text']}  ({c['persona']}, score "
             f"{float(c['score'] or 0):.2f})" + ("  — sent to review" if c["queued"] else "") for c in cut]
    return print_result(cut, args.json, lines + [f"Send them to your review: `monchat memory queue-cut {run_id}` "
                                                 "(all) or with their numbers."] if cut else
                        [f"Flush {run_id} cut nothing over a persona's limit."])


def memory_queue_cut(app, args) -> int:
    """Send what a persona's limit cut at a flush to the review queue: all, or the numbers ``memory cut`` shows."""
    from ..core.flush.cut import queue_cut
    run_id = _run_number(args)
    numbers = []
    for word in args.text:
        if not word.isdigit():
            raise InputError(f"{word!r} is not a number of `monchat memory cut {run_id}`.", "Give their numbers.")
        numbers.append(int(word))
    queued = queue_cut(app.memory, app.archive, run_id, numbers or None)
    return print_result({"run_id": run_id, "queued": queued}, args.json,
                        [f"{len(queued)} sent to your review: see them with `monchat memory queue`." if queued else
                         "Nothing new sent to review (each was sent before, or its lines are gone)."])
