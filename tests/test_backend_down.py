"""A forced backend whose server does not answer: ``status`` names it as not running with the remedy (text and
``--json``), and a flush fails with that error before any stage says it is reading or writing."""

from __future__ import annotations

import json

from monchat.cli import main as cli
from tests.fakes.http import dead_url


def _logs_to_flush(home) -> None:
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "2026-11-23_18.jsonl").write_text(json.dumps({
        "id": "m1", "ts": "2026-11-23T18:00:00+00:00", "role": "user", "text": "I drink green tea.",
        "persona": "hana", "backend": "ollama"}) + "\n", encoding="utf-8")


def test_status_names_a_forced_ollama_that_does_not_answer_as_not_running(home, capsys):
    assert cli.main(["settings", "set", "ollama.host", dead_url()]) == 0
    capsys.readouterr()
    assert cli.main(["--backend", "ollama", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["backend_running"] is False
    assert status["context_length"] is None and status["context_source"] == ""  # not asked of a server that is down
    assert "Ollama is not running" in status["backend_problem"]["message"]
    assert "ollama serve" in status["backend_problem"]["hint"]
    assert cli.main(["--backend", "ollama", "status"]) == 0
    out = capsys.readouterr().out
    assert "warning:   not running: Ollama is not running at" in out and "`ollama serve`" in out


def test_a_flush_whose_backend_is_down_fails_before_any_stage_prints_progress(home, capsys):
    assert cli.main(["settings", "set", "ollama.host", dead_url()]) == 0
    _logs_to_flush(home)
    capsys.readouterr()
    assert cli.main(["--backend", "ollama", "flush"]) != 0
    err = capsys.readouterr().err
    assert "Ollama is not running" in err
    assert "[" not in err.split("Ollama is not running")[0]  # no "[score …] is reading", "[diary] …" before it
