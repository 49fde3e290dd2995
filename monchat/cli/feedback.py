"""``monchat rate MESSAGE_ID up|down|none``: thin words over ``core/memory/feedback.py`` (``memory rate`` is in
``cli/memory.py``; what review learning shows in ``cli/words.py``)."""

from __future__ import annotations

from .output import print_json
from .words import RATING_WORDS


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
    print(f"{args.id}: {RATING_WORDS[result['rating']]}")
    relied = result["relied_on"]
    if not result["in_prompt"]:
        print("  its prompt carried no memory (or it was written before monchat recorded which).")
    elif result["rating"]:
        print(f"  the reply relied on {len(relied)} of the {len(result['in_prompt'])} memories in its prompt"
              + (f": {', '.join(relied)}" if relied else "; no memory was changed"))
    return 0

