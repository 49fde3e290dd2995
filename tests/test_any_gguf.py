"""Any GGUF runs embedded: the chat template, context and answer room come from the file, not from SmolLM2.

The second model is the bundled SmolLM2 rewritten with the ``gguf`` package (tests/support/gguf_files.py):
a Gemma-style template and a 1,024-token trained context.
"""

from __future__ import annotations

import json

import pytest

from monchat.cli.main import main
from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.llama_support import answer_room
from monchat.core.types import Turn
from tests.support.embedded import require_embedded
from tests.support.gguf_files import REWRITTEN_CONTEXT, bundled_gguf, header_only_gguf, rewrite_gguf

TURNS = [Turn("user", "こんにちは、猫の名前を考えて")]


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory):
    return rewrite_gguf(bundled_gguf(), tmp_path_factory.mktemp("gguf") / "rewritten.gguf")


def test_the_context_comes_from_the_file_before_it_is_loaded(tmp_path):
    other = EmbeddedBackend(str(header_only_gguf(tmp_path / "header.gguf")), n_ctx=4096)
    bundled = EmbeddedBackend(n_ctx=4096)
    assert other.context_length() == REWRITTEN_CONTEXT  # trained for 1,024: the 4,096 cap does not apply
    assert bundled.context_length() == 4096  # SmolLM2 is trained for 8,192: the cap applies
    assert other.loads == bundled.loads == 0
    assert other.json_answer_reserve() == min(REWRITTEN_CONTEXT // 2, max(512, answer_room(REWRITTEN_CONTEXT)))
    assert answer_room(REWRITTEN_CONTEXT) < answer_room(4096) < answer_room(32768)


def test_the_chat_template_comes_from_the_file(rewritten):
    other = require_embedded(EmbeddedBackend(str(rewritten), n_ctx=4096, max_tokens=8))
    bundled = require_embedded(EmbeddedBackend(n_ctx=512, max_tokens=8))
    try:
        prompt = other.render_prompt("Be kind.", TURNS)
        assert "<start_of_turn>user\nこんにちは、猫の名前を考えて<end_of_turn>" in prompt
        assert prompt.endswith("<start_of_turn>model\n") and "<|im_start|>user" not in prompt
        assert prompt.startswith("<|im_start|>Be kind.")  # the file's BOS token, then the system prompt
        assert "<|im_start|>user\nこんにちは" in bundled.render_prompt("Be kind.", TURNS)
        # The loaded model has the file's context, and a chat turn runs on it.
        assert other.load().n_ctx() == REWRITTEN_CONTEXT
        reply = other.stream("Be kind.", TURNS, temperature=0.0)
        "".join(reply)
        assert reply.usage.output_tokens > 0
        assert reply.usage.prompt_tokens == len(other.load().tokenize(prompt.encode(), add_bos=False, special=True))
    finally:
        other.close()
        bundled.close()


def test_backend_embedded_model_path_picks_the_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    rewritten = header_only_gguf(tmp_path / "rewritten.gguf")  # status reads the file's header, not its weights
    assert main(["--backend", "embedded", "--model", str(rewritten), "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["backend"] == "embedded" and status["model"] == "rewritten"


def test_a_missing_gguf_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    assert main(["--backend", "embedded", "--model", str(tmp_path / "none.gguf"), "chat", "-m", "hi"]) != 0
    assert "none.gguf does not exist" in capsys.readouterr().err
