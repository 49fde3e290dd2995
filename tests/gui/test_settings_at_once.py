"""Settings → Model says how many requests Ollama and an OpenAI-compatible server answer at once; monchat sends
them no more (a chat turn during a flush is then the server's next request, core/backends/turns.py)."""

from __future__ import annotations

import tomllib


def test_the_requests_a_server_answers_at_once_are_shown_and_saved(window, app, qtbot):
    dialog = window.open_settings()
    model = dialog.model
    assert model.ollama_at_once.value() == 1 and model.ollama_at_once.minimum() == 1  # Ollama's default
    assert model.openai_at_once.value() == 0
    assert model.openai_at_once.text() == "1 on this computer or network, 4 elsewhere"
    model.ollama_at_once.setValue(4)  # OLLAMA_NUM_PARALLEL=4 on the user's server
    model.openai_at_once.setValue(2)
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        assert dialog.save()
    saved = tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))
    assert saved["ollama"]["parallel"] == 4 and saved["openai"]["parallel"] == 2
    assert app.backends.build("ollama").PARALLEL_CALLS == 4
