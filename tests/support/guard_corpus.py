"""The guard's labelled corpus (``tests/data/guard_corpus/``): each case, and what the guard does with it.

A case is a proposal (text, slot) with the user lines it cites, the kept memories it may restate, the assistant
lines shown beside them and the persona whose instructions the request carried; ``label`` says whether it is
the user's (``honest``) or not (``junk``), ``verdict`` what the guard is expected to do with it: ``kept``,
``review`` (unsure: the review queue, ``guard_unsure.py``) or ``dropped``. Besides the hand-written cases in
``en.jsonl`` and ``ja.jsonl``, every filter item SmolLM2 answered in the recorded flushes (``tests/data/recorded``)
is a junk case, read from the recordings as they are now (``recorded_cases``), expected ``dropped``.
``tests/test_guard_corpus.py`` checks each verdict; ``benchmarks/bench_guard.py`` counts them.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

from monchat.core.flush.answer import instruction_texts, normalise_slot, normalise_text
from monchat.core.memory.guard import check_item
from monchat.core.memory.guard_unsure import is_unsure
from monchat.core.personas.library import PersonaRegistry
from monchat.core.prompts import PromptLibrary

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "guard_corpus"
RECORDED = ROOT / "tests" / "data" / "recorded"
LANGUAGES = ("en", "ja")


@cache
def instructions(persona_id: str) -> tuple[str, ...]:
    """What a filter request tells the model as ``persona_id``: the shipped prompt, part and schema words."""
    registry = PersonaRegistry(ROOT / "personas", ROOT / "no-user-surface", ROOT / "no-user-filter")
    prompts = PromptLibrary(ROOT / "prompts")
    persona = registry.filter_persona(persona_id)
    return tuple(instruction_texts(prompts.render("filter.md.j2"),
                                   prompts.render("filter_persona.md.j2", persona=persona)))


def written_cases() -> list[dict]:
    cases = []
    for language in LANGUAGES:
        with open(CORPUS / f"{language}.jsonl", encoding="utf-8") as lines:
            cases += [json.loads(line) for line in lines if line.strip()]
    return cases


def recorded_cases() -> list[dict]:
    """Every filter item of the recorded SmolLM2 flushes, with the lines its evidence names."""
    cases = []
    for language in LANGUAGES:
        recording = json.loads((RECORDED / f"evening_{language}.json").read_text(encoding="utf-8"))
        for call_number, call in enumerate(recording["calls"]):
            if not call["label"].startswith("filter/") or not call.get("answer"):
                continue
            lines = [json.loads(line) for line in call["user"].splitlines() if line.startswith("{")]
            by_id = {line["id"]: line for line in lines}
            try:
                items = json.loads(call["answer"]).get("items") or []
            except (ValueError, AttributeError):
                continue  # a cut-off answer: no item reaches the guard
            persona = call["label"].split("/")[1].lower()
            for n, raw in enumerate(items, start=1):
                if not isinstance(raw, dict):
                    continue
                ids = raw.get("evidence") or []
                cited = list(dict.fromkeys(by_id[i]["text"] for i in ids
                                           if i in by_id and by_id[i]["role"] == "user"))
                cases.append({"id": f"{language}-recorded-{call_number:02d}-{n}", "lang": language, "label": "junk",
                              "kind": "recorded", "text": normalise_text(str(raw.get("text") or "")),
                              "slot": normalise_slot(str(raw.get("slot") or "")), "cited": cited,
                              "assistant": [line["text"] for line in lines if line["role"] != "user"],
                              "instructions": persona, "verdict": "dropped"})
    return cases


def cases() -> list[dict]:
    return written_cases() + recorded_cases()


def verdict(case: dict) -> tuple[str, str]:
    """What the guard does with ``case``: ("kept" | "review" | "dropped", the rule it broke or "")."""
    known = case.get("known") or []
    told = instructions(case["instructions"]) if case.get("instructions") else ()
    rule = check_item(case["text"], case["slot"], case["cited"], case.get("assistant") or [], told, known)
    if rule is None:
        return "kept", ""
    return ("review" if is_unsure(case["text"], rule, case["cited"], known) else "dropped"), str(rule)


def tally(all_cases: list[dict] | None = None) -> dict:
    """The two-sided figures per language: junk kept, junk sent to review, honest dropped, honest sent to review,
    the cases of each, and the rules that dropped honest cases and caught junk."""
    figures: dict = {}
    for case in all_cases if all_cases is not None else cases():
        got, rule = verdict(case)
        lang = figures.setdefault(case["lang"], {"honest": 0, "junk": 0, "junk_kept": 0, "junk_review": 0,
                                                 "honest_dropped": 0, "honest_review": 0,
                                                 "honest_dropped_by_rule": Counter(), "junk_caught_by_rule": Counter(),
                                                 "junk_kept_by_kind": Counter(), "honest_dropped_cases": []})
        lang[case["label"]] += 1
        if case["label"] == "junk":
            if got == "kept":
                lang["junk_kept"] += 1
                lang["junk_kept_by_kind"][case["kind"]] += 1
            elif got == "review":
                lang["junk_review"] += 1
            else:
                lang["junk_caught_by_rule"][rule] += 1
        elif got == "dropped":
            lang["honest_dropped"] += 1
            lang["honest_dropped_by_rule"][rule] += 1
            lang["honest_dropped_cases"].append(case["id"])
        elif got == "review":
            lang["honest_review"] += 1
    for lang in figures.values():
        lang["honest_dropped_pct"] = round(100 * lang["honest_dropped"] / max(1, lang["honest"]), 1)
        for key in ("honest_dropped_by_rule", "junk_caught_by_rule", "junk_kept_by_kind"):
            lang[key] = dict(sorted(lang[key].items()))
    return figures
