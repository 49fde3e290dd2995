"""What an OpenAI-compatible server states about its model, read before anything is sent to it
(``backends/openai_stated.py``, ``openai_context.server_context``): LM Studio's and Ollama's own APIs in the shapes
their documentation gives, llama-server's trained context, the probe of llama_cpp.server far over any context, and
a context nobody stated shown as assumed. The loopback fake plays each server."""

from __future__ import annotations

import logging

from monchat.core.backends.openai_context import PROBE_TOKENS
from tests.fakes.fake_openai import prompt_tokens
from tests.test_backend_openai import MODEL, MemoryState
from tests.test_openai_server_faults import fake, make  # noqa: F401 (the loopback server and its backends)

LM_STUDIO_V1 = {"models": [{"type": "llm", "publisher": "lmstudio-community", "key": MODEL, "display_name": "Qwen",
                            "architecture": "qwen2", "quantization": {"name": "Q4_K_M", "bits_per_weight": 4},
                            "size_bytes": 4_683_073_888, "params_string": "7B",
                            "loaded_instances": [{"id": MODEL, "config": {"context_length": 16384}}],
                            "max_context_length": 32768, "format": "gguf"}]}
OLLAMA_SHOW = {"parameters": "stop \"<|im_end|>\"\nnum_ctx 12288", "details": {"parameter_size": "0.5B",
                                                                               "quantization_level": "Q4_K_M"},
               "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768}}


def test_lm_studio_states_its_loaded_context_and_the_models_size(make, fake):  # noqa: F811 (a fixture)
    fake.routes = {"/api/v1/models": LM_STUDIO_V1}
    backend = make()
    assert backend.context_length() == 16384 and not backend.context_assumed()
    assert "LM Studio's loaded context" in backend.context_source()
    assert backend.model_size() is not None and backend.model_size().label == "7B"
    assert not fake.chat_requests()  # nothing was evaluated to learn it


def test_lm_studio_v0_states_its_loaded_context(make, fake):  # noqa: F811 (a fixture)
    fake.routes = {f"/api/v0/models/{MODEL}": {"id": MODEL, "object": "model", "type": "llm", "state": "loaded",
                                               "max_context_length": 32768, "loaded_context_length": 8192}}
    assert make().context_length() == 8192


def test_ollama_states_num_ctx_and_a_loaded_context_and_its_size(make, fake):  # noqa: F811 (a fixture)
    fake.routes = {"/api/version": {"version": "0.12.3"}, "/api/show": OLLAMA_SHOW}
    backend = make()
    assert backend.context_length() == 12288 and "num_ctx" in backend.context_source()
    assert backend.model_size().small  # 0.5B, as Ollama states it
    fake.routes["/api/ps"] = {"models": [{"name": MODEL, "model": MODEL, "context_length": 4096}]}
    assert make().context_length() == 4096  # what the loaded model runs with now


def test_llama_servers_trained_context_bounds_it_when_props_is_missing(make, fake):  # noqa: F811 (a fixture)
    fake.model_extra = {"meta": {"n_ctx_train": 8192, "n_params": 134_515_008}}
    backend = make()
    assert backend.context_length() == 8192 and "trained" in backend.context_source()
    assert backend.model_size().small


def test_llama_cpp_server_is_probed_far_over_any_context_and_its_figure_is_not_capped(make, fake):  # noqa: F811 (a fixture)
    """An 8,192 server is 8,192 (the figure was capped at 4,096 before), learned from one refused probe."""
    fake.n_ctx, fake.openapi_title = 8192, "🦙 llama.cpp Python API"
    backend = make(state=MemoryState())
    assert backend.context_length() == 8192 and not backend.context_assumed()
    probe = [r["body"] for r in fake.chat_requests()]
    assert len(probe) == 1 and prompt_tokens(probe[0]) >= PROBE_TOKENS and probe[0]["max_tokens"] == 1


def test_a_context_nobody_states_is_logged_and_shown_as_assumed(make, fake, caplog):  # noqa: F811 (a fixture)
    with caplog.at_level(logging.WARNING):
        backend = make()
        assert backend.context_length() == 4096
    assert backend.context_assumed() and backend.context_source().startswith("assumed")
    assert "4096 tokens assumed" in caplog.text
    assert not fake.chat_requests()  # an unknown server is never probed (it might evaluate the probe)


SMOL = "/models/SmolLM2-135M-Instruct.Q4_1.gguf"  # llama_cpp.server started without --model_alias: the GGUF's path


def test_a_small_model_served_by_an_openai_compatible_server_puts_nothing_into_lasting_memory(home, fake):  # noqa: F811 (a fixture)
    """Its id names it small (the server states nothing): doctor, status and the flush say so, and what it finds
    waits for review instead of entering lasting memory by itself."""
    import json

    from tests.support.oracle import Oracle, Rule
    from tests.test_cli_backends import run
    from tests.test_cli_openai import answered_by
    fake.models = [SMOL]
    fake.structured_reply = answered_by(Oracle([Rule("Remember", "Lives in Sendai", "home/city", "explicit", 0.95)]))
    source = home.parent / "evening.jsonl"
    source.write_text(json.dumps({"ts": "2026-11-23T21:00:00+09:00", "role": "user",
                                  "text": "Remember: I live in Sendai"}) + "\n", encoding="utf-8")
    assert run(home, "settings", "set", "openai.base_url", fake.url).returncode == 0
    assert run(home, "import", str(source)).returncode == 0
    use = ("--backend", "openai", "--model", SMOL)

    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    assert "135M parameters: a small model" in run(home, *use, "doctor").stdout
    status = json.loads(run(home, *use, "status", "--json").stdout)
    assert status["model_size"] == {"parameters": 135_000_000, "label": "135M", "small": True}
    done = run(home, *use, "flush", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["small_model"]["label"] == "135M" and report["promoted"]["layer1"] == 0
    queue = run(home, *use, "memory", "queue", "--json")
    assert "small_model" in queue.stdout and "Lives in Sendai" in queue.stdout


def test_a_server_restarted_with_a_smaller_context_is_relearned_at_the_first_refusal(make, fake):  # noqa: F811 (a fixture)
    import pytest

    from monchat.core.errors import ContextShrank
    from tests.test_backend_openai import SCHEMA, SYSTEM
    from tests.test_openai_context import long_turns
    fake.n_ctx, fake.openapi_title = 8192, "🦙 llama.cpp Python API"
    state = MemoryState()
    assert make(state=state).context_length() == 8192
    fake.n_ctx = 2048  # the user restarted the server with -n_ctx 2048
    backend = make(state=state)
    assert backend.context_length() == 8192  # remembered: no probe at every start
    with pytest.raises(ContextShrank) as caught:
        backend.complete_json(SYSTEM, long_turns(3000), SCHEMA)
    assert caught.value.context == 2048 and make(state=state).context_length() == 2048


def test_status_shows_the_context_and_where_it_comes_from(home, fake, capsys):  # noqa: F811 (a fixture)
    import json

    from monchat.cli import main as cli
    fake.routes = {"/api/v1/models": LM_STUDIO_V1}
    assert cli.main(["settings", "set", "openai.base_url", fake.url]) == 0
    capsys.readouterr()
    use = ["--backend", "openai", "--model", MODEL]
    assert cli.main([*use, "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["context_length"] == 16384 and "LM Studio's loaded context" in status["context_source"]
    assert cli.main([*use, "status"]) == 0
    assert f"context:   16,384 tokens — {status['context_source']}\n" in capsys.readouterr().out
