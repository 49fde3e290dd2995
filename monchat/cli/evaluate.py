"""``monchat eval --set FILE|ja-week|en-week [--now ISO] [--json] [--keep DIR] [--judge MODEL] [--models a,b,c]``
and ``monchat eval results``: a memory score by program, in a scratch data folder (docs/eval.md).

It runs before the app is built: the user's data folder is never opened, only their settings and models read.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from .output import print_json


def register(sub) -> None:
    p = sub.add_parser("eval", help="how well a model keeps memory: a set's sessions in a scratch folder, scored "
                                    "by program (docs/eval.md)")
    p.add_argument("action", nargs="?", choices=("results",), help="results: list the saved runs")
    p.add_argument("--set", dest="set_name", metavar="FILE|NAME", help="a set file, or ja-week / en-week")
    p.add_argument("--now", metavar="ISO", help="when the questions are asked (default: an hour after the last line)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--keep", type=Path, metavar="DIR", help="keep the scratch data folder here for inspection")
    p.add_argument("--judge", metavar="MODEL", help="also ask this model whether each reply is right (saved beside "
                                                    "the program's verdict, never replacing it)")
    p.add_argument("--models", metavar="A,B,C", help="run each model in turn and print one table")
    p.add_argument("--format", choices=("monchat", "longmemeval"), default="monchat",
                   help="longmemeval: the published LongMemEval JSON (docs/eval.md)")
    p.add_argument("--types", metavar="T1,T2", help="longmemeval: only these question types")
    p.add_argument("--ids", type=Path, metavar="FILE", help="longmemeval: only the question ids in FILE (one a line)")
    p.add_argument("--limit", type=int, metavar="N", help="longmemeval: at most N questions")
    # the global --backend/--model, also taken after `eval` (`monchat eval --set ja-week --backend embedded`)
    p.add_argument("--backend", choices=("ollama", "openai", "gemini", "embedded"), default=argparse.SUPPRESS)
    p.add_argument("--model", default=argparse.SUPPRESS)
    p.set_defaults(run=cmd_eval, builds_app=False)  # never the user's app: each run builds its own


def user_paths():
    from ..core.paths import Paths
    return Paths.from_env()


def app_factory(args, model: str | None):
    """``make_app(home, clock)``: a monchat in ``home`` with the user's settings and models (read, never written)."""
    from ..app import scratch_factory
    return scratch_factory(user_paths(), backend=args.backend, model=model,
                           pinned_backend=getattr(args, "pinned_backend", None))


def judge_of(args):
    """``--judge MODEL``: a verdict by that model beside the program's (``None`` when it could not say)."""
    if not args.judge:
        return None
    from ..core.clock import SetClock, system_now
    from ..core.errors import KnownError
    from ..core.types import Turn
    folder = Path(tempfile.mkdtemp(prefix="monchat-judge-"))
    app = app_factory(args, args.judge)(folder / "home", SetClock(system_now()))
    schema = {"type": "object", "properties": {"right": {"type": "boolean"}}, "required": ["right"]}

    def judge(question, reply: str):
        expected = ("that it does not know" if question.abstain
                    else "an answer containing: " + ", ".join(question.answer_words))
        turn = f"Question: {question.question}\nExpected: {expected}\nReply: {reply}\nIs the reply right?"
        try:
            answer = app.backends.default().complete_json("You grade answers strictly.", [Turn("user", turn)], schema)
        except KnownError:
            return None
        return bool(answer.get("right")) if isinstance(answer.get("right"), bool) else None
    return judge


def run_one(args, model: str | None, keep: Path | None = None) -> dict:
    from ..core.evaluation.results import save
    from ..core.evaluation.runner import run_set
    from ..core.evaluation.sets import load_set
    from ..core.types import parse_ts
    from ..core.errors import InputError
    if args.format == "longmemeval":
        from ..core.evaluation.longmemeval import run_longmemeval
        result = run_longmemeval(args.set_name, app_factory(args, model), types=args.types, ids=args.ids,
                                 limit=args.limit, progress=lambda line: print(line, file=sys.stderr))
    else:
        eval_set = load_set(args.set_name)
        try:
            now = parse_ts(args.now) if args.now else None
        except ValueError as exc:
            raise InputError(f"--now: {exc}", "Give a time such as 2026-11-28T21:00:00+09:00.") from None
        result = run_set(eval_set, app_factory(args, model), now=now, keep=keep, judge=judge_of(args),
                         progress=lambda line: print(line, file=sys.stderr))
    result["saved"] = str(save(result, user_paths().data_dir))
    return result


def cmd_eval(app, args) -> int:
    from ..core.errors import InputError
    if args.action == "results":
        return eval_results(args)
    if not args.set_name:
        raise InputError("monchat eval needs --set FILE (or ja-week, en-week).", "See `monchat eval --help`.")
    if args.models:
        return side_by_side(args, [m.strip() for m in args.models.split(",") if m.strip()])
    result = run_one(args, args.model, args.keep)
    if args.json:
        return print_json(result)
    from ..core.evaluation.results import score_line
    print(f"{result['set']} with {result['backend']} {result['model']} at {result['now']}:")
    print(f"  memory score: {score_line(result)}")
    print(f"  review: {result['review']['queued']} item(s) approved over {result['review']['flushes']} flush(es); "
          f"{result['calls']} call(s), {result['tokens']} token(s), {result['elapsed_s']} s")
    for fact in result["facts"]:
        if not fact["right"]:
            print(f"  {fact['id']} ({fact['kind']}): {fact['verdict']} {' '.join(fact['memories'])}".rstrip())
    print(f"  saved: {result['saved']}")
    return 0


def side_by_side(args, models: list[str]) -> int:
    # --keep DIR with several models: one folder each inside it
    results = [run_one(args, model, args.keep / re.sub(r"[^A-Za-z0-9._-]+", "_", model) if args.keep else None)
               for model in models]
    if args.json:
        return print_json(results)
    print_table(results)
    return 0


def print_table(results: list[dict]) -> None:
    head = ("set", "backend", "model", "kept", "retired", "clean", "invented", "answered", "calls", "time", "date")
    rows = [head] + [(r["set"], r["backend"], r["model"], f"{r['present']['kept']}/{r['present']['of']}",
                      f"{r['retired']['retired']}/{r['retired']['of']}", f"{r['never']['clean']}/{r['never']['of']}",
                      str(r["invented"]), f"{r['questions']['right']}/{r['questions']['of']}", str(r["calls"]),
                      f"{r['elapsed_s']}s", str(r["started"])[:16]) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def eval_results(args) -> int:
    from ..core.evaluation.results import results_dir, saved
    runs = saved(user_paths().data_dir)
    if args.json:
        return print_json(runs)
    if not runs:
        print(f"No saved eval runs (in {results_dir(user_paths().data_dir)}). Run `monchat eval --set ja-week`.")
        return 0
    print_table(runs)
    return 0
