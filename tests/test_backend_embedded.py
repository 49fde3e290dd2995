"""The embedded backend against the real SmolLM2-135M-Instruct model.

The model is loaded once for the file (it stays warm, as in the app). Tests
that need no model (a missing file, a missing llama-cpp-python) run everywhere.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import textwrap

import pytest

from monchat.core.backends.base import chat_messages
from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.llama_support import default_threads
from monchat.core.errors import BackendError, BackendUnavailable
from monchat.core.types import Turn
from tests.support.embedded import require_embedded

N_CTX = 512  # small, so the over-long history test evaluates few tokens
MAX_TOKENS = 64  # room for the short JSON answers below (about 35 tokens)
SYSTEM = "You are a friendly companion. Answer briefly."
HELLO = [Turn("user", "Hello! What is a good name for a cat?")]
FACTS_SYSTEM = "List facts about the user as JSON, each with a score from 0 to 1."
FACTS_TURNS = [Turn("user", "I like tea.")]
FACTS_SCHEMA = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "maxItems": 2,
            "items": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "score": {"type": "number"}},
                "required": ["text", "score"],
            },
        }
    },
    "required": ["items"],
}


@pytest.fixture(scope="module")
def backend():
    return require_embedded(EmbeddedBackend(n_ctx=N_CTX, max_tokens=MAX_TOKENS))


def chat(backend, turns=HELLO, stop=None):
    reply = backend.stream(SYSTEM, turns, temperature=0.0, stop=stop)
    return reply, list(reply)


def long_history(pairs: int) -> list[Turn]:
    turns = []
    for i in range(pairs):
        turns.append(Turn("user", f"Message {i}: tell me about the number {i} and today's weather in detail."))
        turns.append(Turn("assistant", f"Reply {i}: {i} is a fine number; the weather is mild with a light breeze."))
    turns.append(Turn("user", "Which number did we talk about last?"))
    return turns


def test_chat_turn_streams_pieces_and_fills_usage(backend):
    reply, pieces = chat(backend)
    assert len(pieces) > 1
    assert "".join(pieces) == reply.text and reply.text.strip()
    assert not reply.stopped
    usage = reply.usage
    assert usage.prompt_tokens and usage.prompt_tokens > 10
    assert usage.output_tokens == len(pieces)
    assert usage.estimated_prompt_tokens and usage.estimated_prompt_tokens > 10


def test_japanese_message_gets_a_reply(backend):
    reply, _ = chat(backend, [Turn("user", "こんにちは！今日はいい天気ですね。")])
    assert reply.text.strip()
    assert reply.usage.prompt_tokens > 10


def test_model_is_loaded_once_and_kept_warm(backend):
    assert EmbeddedBackend(n_ctx=N_CTX).loads == 0  # constructing loads nothing
    first = backend.load()
    chat(backend)
    backend.complete_json(FACTS_SYSTEM, FACTS_TURNS, FACTS_SCHEMA)
    assert backend.load() is first
    assert backend.loads == 1


# Values no model writes unless the grammar made from the schema forces them.
CODED_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "enum": ["zq-7", "xv-3"]},
        "items": {
            "type": "array",
            "minItems": 1,
            "maxItems": 2,
            "items": {
                "type": "object",
                "properties": {"tag": {"type": "string", "enum": ["qqtea", "qqmilk"]},
                               "score": {"type": "number"}},
                "required": ["tag", "score"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["code", "items"],
    "additionalProperties": False,
}


def test_complete_json_follows_the_schema(backend):
    answer = backend.complete_json(FACTS_SYSTEM, FACTS_TURNS, CODED_SCHEMA)
    assert set(answer) == {"code", "items"}
    assert answer["code"] in ("zq-7", "xv-3")  # only the schema's grammar puts these here
    assert 1 <= len(answer["items"]) <= 2
    for item in answer["items"]:
        assert set(item) == {"tag", "score"}
        assert item["tag"] in ("qqtea", "qqmilk")
        assert isinstance(item["score"], (int, float)) and not isinstance(item["score"], bool)


def test_stop_ends_the_stream_early_and_frees_the_model(backend):
    _, unstopped = chat(backend)
    stop = threading.Event()
    reply = backend.stream(SYSTEM, HELLO, temperature=0.0, stop=stop)
    pieces = []
    for piece in reply:
        pieces.append(piece)
        stop.set()
    assert reply.stopped
    assert len(pieces) == 1 < len(unstopped)
    assert reply.usage.output_tokens == 1
    assert not backend.busy


def test_an_abandoned_stream_frees_the_model(backend):
    pieces = iter(backend.stream(SYSTEM, HELLO, temperature=0.0))
    next(pieces)
    assert backend.busy
    pieces.close()
    assert not backend.busy


def test_a_chat_and_a_structured_call_from_two_threads_are_serialised(backend):
    results, errors = {}, []

    def run(kind):
        try:
            if kind == "chat":
                results[kind] = chat(backend)[0].text
            else:
                results[kind] = backend.complete_json(FACTS_SYSTEM, FACTS_TURNS, FACTS_SCHEMA)
        except Exception as exc:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(kind,)) for kind in ("chat", "json")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    assert results["chat"].strip() and isinstance(results["json"]["items"], list)


def test_long_history_drops_the_oldest_turns_with_a_warning(backend):
    turns = long_history(20)
    reply, _ = chat(backend, turns)
    assert reply.text.strip()
    (warning,) = [w for w in reply.usage.warnings if "oldest turns" in w]
    dropped = int(warning.split()[2])
    assert 0 < dropped < len(turns)
    assert reply.usage.prompt_tokens <= N_CTX - MAX_TOKENS
    assert reply.usage.estimated_prompt_tokens > N_CTX

    kept, tokens = backend._fit(backend.load(), SYSTEM, turns)
    assert kept == turns[dropped:]  # the newest turns, ending with the last user turn
    assert kept[0].role == "user" and tokens == reply.usage.prompt_tokens


def test_a_message_longer_than_the_context_is_a_clear_error(backend):
    with pytest.raises(BackendError, match="longer than the embedded model's context") as caught:
        chat(backend, [Turn("user", "tea and biscuits " * 600)])
    assert "embedded.n_ctx" in caught.value.hint
    assert not backend.busy


def test_doctor_reports_the_context(backend):
    report = backend.doctor()
    assert report.ok, report.checks
    assert report.context_length == N_CTX == backend.context_length()
    assert any(check.name == "context" and f"n_ctx {N_CTX}" in check.detail for check in report.checks)


def test_a_turn_after_a_turn_evaluates_only_the_new_messages(backend):
    first, _ = chat(backend)
    second_turns = HELLO + [Turn("assistant", first.text), Turn("user", "And a good name for a dog?")]
    llama = backend.load()
    new_tokens = (backend._count(llama, chat_messages(SYSTEM, second_turns))
                  - backend._count(llama, chat_messages(SYSTEM, HELLO)))

    second, _ = chat(backend, second_turns)

    usage = second.usage  # cached_tokens: what llama.cpp's own counters say it did not evaluate
    assert usage.cached_tokens >= first.usage.prompt_tokens - 1  # the whole first turn came from the cache
    assert usage.prompt_tokens - usage.cached_tokens <= new_tokens + 1


def test_a_structured_answer_tells_its_tokens_as_they_arrive(backend):
    heard = []

    backend.complete_json(FACTS_SYSTEM, FACTS_TURNS, FACTS_SCHEMA, on_tokens=heard.append)

    assert len(heard) > 3 and heard == sorted(set(heard))
    assert abs(heard[-1] - backend.last_usage.output_tokens) <= 3  # pieces tokenised apart may differ a bit


def test_doctor_reports_the_threads_it_runs_with(backend):
    report = backend.doctor()
    detail = next(check.detail for check in report.checks if check.name == "threads")
    assert detail == f"{default_threads()} (the physical cores)"
    assert EmbeddedBackend(threads=3).thread_count() == 3


def test_llama_cpps_threads_wait_passively_unless_the_user_says_otherwise():
    script = textwrap.dedent("""
        import os
        from monchat.core.backends.embedded import EmbeddedBackend
        assert "OMP_WAIT_POLICY" not in os.environ
        EmbeddedBackend().probe()
        print(os.environ["OMP_WAIT_POLICY"])
    """)
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert done.stdout.strip() == "PASSIVE", done.stderr
    mine = subprocess.run([sys.executable, "-c", script.replace('assert "OMP_WAIT_POLICY" not in os.environ', "")],
                          capture_output=True, text=True, timeout=120, env={**env, "OMP_WAIT_POLICY": "ACTIVE"})
    assert mine.stdout.strip() == "ACTIVE", mine.stderr


def test_the_default_thread_count_is_the_physical_cores_this_process_may_use():
    allowed = os.sched_getaffinity(0)
    listed = subprocess.run(["lscpu", "-p=CPU,CORE,SOCKET"], capture_output=True, text=True, check=True).stdout
    cores = {tuple(row.split(",")[1:]) for row in listed.splitlines()
             if row and not row.startswith("#") and int(row.split(",")[0]) in allowed}
    assert default_threads() == len(cores) >= 1


def test_probe_is_true_when_installed(backend):
    assert backend.probe() is True


def test_a_missing_model_file_is_unavailable(tmp_path):
    missing = tmp_path / "missing.gguf"
    backend = EmbeddedBackend(str(missing))
    assert backend.model == "missing"
    assert backend.probe() is False
    with pytest.raises(BackendUnavailable):
        list(backend.stream(SYSTEM, HELLO))
    assert not backend.busy
    report = backend.doctor()
    assert not report.ok
    assert report.checks[-1].hint


def test_without_llama_cpp_the_module_imports_and_explains(tmp_path):
    script = textwrap.dedent("""
        import sys
        sys.modules["llama_cpp"] = None  # as if llama-cpp-python were not installed
        from monchat.core.backends.embedded import EmbeddedBackend
        from monchat.core.errors import BackendUnavailable
        from monchat.core.types import Turn
        backend = EmbeddedBackend()
        assert backend.probe() is False
        try:
            list(backend.stream("", [Turn("user", "hi")]))
        except BackendUnavailable as exc:
            assert "llama-cpp-python" in exc.message and "embedded extra" in exc.hint, exc
        else:
            raise AssertionError("no BackendUnavailable")
        report = backend.doctor()
        assert not report.ok and report.checks[0].name == "llama-cpp-python"
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
