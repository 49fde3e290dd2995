"""On a slow model the flush dialog moves while an answer arrives, not only when a part is read.

The flush runs through the real ``ollama`` client against a loopback Ollama that
writes each filter answer a few characters at a time (one token a chunk).
"""

from __future__ import annotations

import json
import re

import pytest

from monchat.core.backends.ollama import OllamaBackend
from tests.fakes.fake_ollama import running_fake_ollama
from tests.gui.conftest import log_message

TOKENS = re.compile(r"part 1/1 · (\d+) tokens")


@pytest.fixture
def fake():
    with running_fake_ollama() as server:
        server.structured_content = json.dumps({"items": []}, indent=1)  # 18 characters
        server.structured_piece_chars = 3  # six chunks
        server.mode, server.chunk_delay_s = "slow", 0.15
        yield server


@pytest.fixture
def backend(fake):
    model = OllamaBackend("llama3.2", host=fake.url, num_ctx=8192, timeout_s=10)
    yield model
    model.close()


def test_a_persona_bar_counts_the_tokens_of_the_answer_it_is_reading(app, make_window, fake, qtbot):
    log_message(app, 3, "今日はすき焼きを食べた")
    log_message(app, 2.9, "いいですね！", role="assistant")
    window = make_window("en")
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    _name, bar = next(iter(dialog.persona_rows.values()))
    seen: list[int] = []

    def tokens_grew() -> bool:
        match = TOKENS.fullmatch(bar.format())
        if match and (not seen or int(match.group(1)) != seen[-1]):
            seen.append(int(match.group(1)))
        return len(seen) >= 3

    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
        qtbot.waitUntil(tokens_grew, timeout=10000)
        assert "tokens written" in dialog.status.text()
        assert bar.value() == 0  # the part is still being read

    assert seen == sorted(seen) and seen[0] < seen[-1]
    assert bar.format() == "done" and bar.value() == 1
