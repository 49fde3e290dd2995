"""``monchat eval`` with the real embedded model (SmolLM2) on a tiny set: the score is whatever it is — recorded in
the test's output, not asserted — but the run completes, scores by program and gives every field of the result."""

from __future__ import annotations

import json

import pytest

from monchat.cli import main as cli_main
from monchat.core.backends.embedded import EmbeddedBackend
from tests.support.embedded import require_embedded

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # one flush and two turns of the real model

TINY = {"name": "tiny-en", "language": "en",
        "sessions": [{"date": "2026-11-16T08:00:00+00:00", "messages": [
            {"ts": "2026-11-16T08:00:00+00:00", "role": "user", "text": "Remember this: I live in York."},
            {"ts": "2026-11-16T08:01:00+00:00", "role": "assistant", "text": "Noted. You play the cello, right?"},
            {"ts": "2026-11-16T08:02:00+00:00", "role": "user", "text": "No. Remember: I am allergic to peanuts."}]}],
        "facts": [{"id": "f0", "kind": "present", "words": ["York"]},
                  {"id": "f1", "kind": "never", "words": ["cello"]}],
        "questions": [{"id": "q0", "question": "Where do I live?", "answer_words": ["York"]},
                      {"id": "q1", "question": "Who is my favourite film director?", "abstain": True}]}


def test_the_embedded_model_runs_a_tiny_set(tmp_path, monkeypatch, capsys):
    backend = require_embedded(EmbeddedBackend(n_ctx=4096, max_tokens=192))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "user"))
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    try:
        code = cli_main.main(["eval", "--set", str(path), "--json"], pinned_backend=backend)
    finally:
        backend.close()
    out = capsys.readouterr().out
    assert code == 0
    result = json.loads(out)
    assert result["present"]["of"] == 1 and result["never"]["of"] == 1 and result["questions"]["of"] == 2
    assert result["review"]["flushes"] == 1 and result["calls"] >= 3
    with capsys.disabled():  # recorded, not asserted
        print(f"\nembedded tiny-en: {result['present']} {result['never']} invented={result['invented']} "
              f"questions={result['questions']['right']}/{result['questions']['of']} {result['elapsed_s']}s")
