"""``monchat rate MESSAGE_ID up|down|none``, ``memory rate``, and what review learning shows
(``settings show``, ``status``, ``settings reset-learning``): thin words over ``core/memory/feedback.py``
and ``core/memory/learning.py``."""

from __future__ import annotations

from ..core.errors import InputError
from .output import print_json

WORDS = {"up": "👍", "down": "👎", "": "cleared"}


def register(sub) -> None:
    p = sub.add_parser("rate", help="👍/👎 a reply (its id: `monchat search WORDS --json`); none clears it")
    p.add_argument("id", help="the reply's message id")
    p.add_argument("rating", choices=("up", "down", "none", "clear"))
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_rate)


def cmd_rate(app, args) -> int:
    result = app.feedback.rate_message(args.id, args.rating)
    if args.json:
        return print_json(result)
    print(f"{args.id}: {WORDS[result['rating']]}")
    relied = result["relied_on"]
    if not result["in_prompt"]:
        print("  its prompt carried no memory (or it was written before monchat recorded which).")
    elif result["rating"]:
        print(f"  the reply relied on {len(relied)} of the {len(result['in_prompt'])} memories in its prompt"
              + (f": {', '.join(relied)}" if relied else "; no memory was changed"))
    return 0


def memory_rate(memory, args) -> dict:
    if not args.id or len(args.text) != 1:
        raise InputError("memory rate needs an id and up, down or none.", "Example: monchat memory rate mem-1a2b up")
    result = memory.rate(args.id, args.text[0])
    if not args.json:
        review = f" (review item #{result['review']}: approve keeps it)" if result["review"] else ""
        print(f"{args.id}: {WORDS[result['rating']]}{review}")
    return result


def learning_lines(learning) -> list[str]:
    """The Layer 1 auto-approve thresholds review decisions taught (``App.learning``), one line per topic."""
    base = learning.base
    return [f"{e['topic']}: {e['threshold']:.2f} (setting {base:.2f}; "
            f"{e['approved']} approved, {e['rejected']} rejected)" for e in learning.summary()]


def reset_learning(learning) -> int:
    learning.reset()
    print("Forgot what your review decisions taught: flush.auto_approve_confidence alone decides again.")
    return 0
