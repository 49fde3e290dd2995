"""The guard judged on both sides at once (issue 43): junk kept and honest dropped, per rule and per language.

Run: .venv/bin/python benchmarks/bench_guard.py   (or ``benchmarks/run --only guard``)

Every case of the labelled corpus (``tests/data/guard_corpus/``: honest distillations as capable models write
them, junk as small models answer, and every filter item of the recorded SmolLM2 flushes) goes through the guard
as a flush puts it (``check_item``, then ``guard_unsure.is_unsure``). The figures: junk the guard kept (goal 0),
honest cases it dropped (goal at most 3 %), and what waits for review instead (the cost of "unsure": a user has
to look at it). The baseline is the size of each side. No model, no I/O besides reading the corpus.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.core.memory.guard import GuardRule
from tests.support.guard_corpus import cases, tally

JUNK_KINDS = ("echo", "placeholder", "assistant", "claim", "loop", "swap", "unrelated", "nothing", "recorded")


def measure(size: str = "full") -> dict:
    """junk kept and honest dropped per language (with the rules behind them), and the review load."""
    started = time.perf_counter()
    all_cases = cases()
    figures = tally(all_cases)
    seconds = time.perf_counter() - started
    return {
        "guard_junk_kept": {lang: f["junk_kept"] for lang, f in figures.items()},
        "guard_junk": {lang: f["junk"] for lang, f in figures.items()},
        "guard_honest_dropped_pct": {lang: f["honest_dropped_pct"] for lang, f in figures.items()},
        "guard_honest": {lang: f["honest"] for lang, f in figures.items()},
        "guard_review": {f"{lang} {side}": f[f"{side}_review"] for lang, f in figures.items()
                         for side in ("honest", "junk")},
        # per rule: which rule dropped honest cases, which caught junk; junk kept by the kind the corpus gives it
        "guard_honest_dropped_by_rule": {f"{lang} {rule}": f["honest_dropped_by_rule"].get(rule, 0)
                                         for lang, f in figures.items() for rule in GuardRule},
        "guard_junk_caught_by_rule": {f"{lang} {rule}": f["junk_caught_by_rule"].get(rule, 0)
                                      for lang, f in figures.items() for rule in GuardRule},
        "guard_junk_kept_by_kind": {f"{lang} {kind}": f["junk_kept_by_kind"].get(kind, 0)
                                    for lang, f in figures.items() for kind in JUNK_KINDS},
        "guard_honest_dropped_cases": {lang: f["honest_dropped_cases"] for lang, f in figures.items()},
        "guard_cases_per_s": round(len(all_cases) / seconds, 1),
    }


if __name__ == "__main__":
    print(json.dumps(measure(), ensure_ascii=False, indent=2))
