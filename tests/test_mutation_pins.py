"""The mutation checks stay armed (issue 44, item 4): every pinned mutation still applies, every module has a score.

``scripts/mutation-pins`` re-checks one-step changes to the guarantee rules by hand; a change whose snippet no
longer appears (the rule was reworded or moved) would be "NOT APPLIED" there — a pin silently gone. This test
reads the lists and finds each snippet exactly once in the code as it is now, and each pinning test file on disk,
in every run (it starts nothing: a few milliseconds). It also checks that each module of
``scripts/mutation-modules.toml`` has its files and tests, and a row in docs/testing.md's table of kept scores
(``bash scripts/mutation --module NAME`` fails when its score falls below that row's figure). Running the
mutations themselves is ``scripts/mutation-pins --guarantees`` (about 105 s of CPU: over the full run's budget,
see docs/testing.md) and ``bash scripts/mutation --module NAME``.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pins():
    loader = importlib.machinery.SourceFileLoader("mutation_pins", str(ROOT / "scripts" / "mutation-pins"))
    spec = importlib.util.spec_from_loader("mutation_pins", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


PINS = pins()
CASES = [(*m, PINS.TESTS) for m in PINS.MUTATIONS] + PINS.GUARANTEES
MODULES = tomllib.loads((ROOT / "scripts" / "mutation-modules.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("what, name, snippet, mutant, tests", CASES, ids=[c[0] for c in CASES])
def test_each_pinned_mutation_still_applies_to_the_code(what, name, snippet, mutant, tests):
    assert PINS.find(ROOT, name, snippet) is not None, (
        f"{what}: no {name} under monchat/ holds {snippet!r} once; update scripts/mutation-pins to the rule's "
        "new wording and check its test still fails with the change")
    assert snippet != mutant
    assert all((ROOT / t).exists() for t in tests), tests


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_guarantee_module_has_its_files_tests_and_a_kept_score(name):
    module = MODULES[name]
    assert all((ROOT / path).is_file() for path in module["mutate"]), module["mutate"]
    assert all((ROOT / path).exists() for path in module["tests"]), module["tests"]
    assert name in kept_scores(), f"docs/testing.md keeps no score for module {name!r} (or says 'not measured')"


def kept_scores() -> dict[str, str]:
    """``module → score`` from the table in docs/testing.md's "Mutation testing per guarantee module"."""
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    section = text.split("### Mutation testing per guarantee module", 1)[1].split("\n## ", 1)[0]
    scores = {}
    for line in section.splitlines():
        found = re.match(r"\| `([a-z-]+)` \| (?:\*\*)?([0-9.]+) %|\| `([a-z-]+)` \| not measured", line)
        if found:
            scores[found.group(1) or found.group(3)] = found.group(2) or "not measured"
    return scores
