"""History imported before the first start belongs to the persona that first start will talk with, in the
terminal's language (issue 38: English history showed under ハナ in an English window)."""

from __future__ import annotations

import json

import pytest

from monchat.cli import main as cli
from monchat.app import build_app

LINES = [{"ts": "2026-11-29T09:00:00+00:00", "role": "user", "text": "Good morning"},
         {"ts": "2026-11-29T09:00:05+00:00", "role": "assistant", "text": "Morning! Slept well?"}]


@pytest.mark.parametrize("locale, persona", [("en_US.UTF-8", "mira"), ("ja_JP.UTF-8", "hana")])
def test_history_imported_before_the_first_start_goes_to_the_persona_of_the_terminals_language(
        home, tmp_path, monkeypatch, locale, persona):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    source = tmp_path / "history.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    assert cli.main(["import", str(source)]) == 0
    app = build_app(str(home))
    assert not app.paths.settings_path.exists()
    assert {m.persona for m in app.logbook.read_all().messages} == {persona}


def test_after_the_first_start_imported_history_goes_to_the_chosen_persona(home, tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    app = build_app(str(home))
    app.paths.settings_path.write_text('[chat]\npersona = "ren"\n', encoding="utf-8")
    source = tmp_path / "history.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    assert cli.main(["import", str(source)]) == 0
    assert {m.persona for m in build_app(str(home)).logbook.read_all().messages} == {"ren"}
