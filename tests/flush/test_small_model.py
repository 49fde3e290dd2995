"""Honest about small models: a flush with a model known to be small says so and auto-approves nothing.

A model under a billion parameters (the embedded SmolLM2-135M) copies its own prompt into memory; what
it proposes waits in the review queue, with the reason, instead of going into lasting memory (Layer 1)
by itself. Each rule here was seen failing with it removed: the hold in ``Transitions.promote`` (the
explicit item went into Layer 1), the hold in ``Consolidator._asks`` (the preference's new version was
applied), the size probe's cache (two ``/api/show`` requests).
"""

from __future__ import annotations

import json

from monchat.core.backends.model_size import ModelSize, gguf_model_size, parse_size_label
from monchat.core.backends.ollama import OllamaBackend
from tests.flush.conftest import World, Rule
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle

SENDAI = "Lives in Sendai"
COFFEE, TEA = "Likes strong black coffee in the morning", "Likes green tea in the morning now"


def _remember_sendai(world, when: str = "2026-11-23T21:00:00+09:00") -> None:
    world.oracle.rules = [Rule("Remember", SENDAI, "home/city", "explicit", 0.95)]
    world.say(when, "Remember: I live in Sendai")


def test_a_flush_with_a_small_model_says_so_and_queues_what_would_have_gone_into_lasting_memory(world, capsys):
    world.oracle.size_label = "135M"
    _remember_sendai(world)
    world.clock.now = world.clock.now.replace(hour=22)
    out = world.cli(capsys, "flush", "--seed", "7")

    assert world.layer(SENDAI) != 1 and world.mem(SENDAI).state == "queued"
    [row] = world.queue()
    assert row["action"] == "layer1" and row["held"] == "small_model"
    assert "made with a small model (oracle:oracle-1)" in row["reason"]
    assert "warning: oracle:oracle-1 is a small model (135M parameters): memory built with it will be " \
           "unreliable" in out
    assert "ollama pull gemma3:4b" in out and "lasting memory +0," in out
    assert out.count("is a small model") == 1  # said once, at the top, not again among the notes

    world.memory.approve(str(row["id"]))  # the user's yes puts it where the rules would have
    assert world.layer(SENDAI) == 1


def test_the_json_report_and_status_say_the_model_is_small(world, capsys):
    world.oracle.size_label = "135M"
    _remember_sendai(world)
    world.clock.now = world.clock.now.replace(hour=22)
    report = world.cli_json(capsys, "flush", "--seed", "7")
    assert report["small_model"] == {"model": "oracle:oracle-1", "parameters": 135_000_000, "label": "135M",
                                     "small": True}
    assert report["promoted"]["layer1"] == 0 and report["queued"] == 1
    assert any("is a small model" in note for note in report["notes"])  # and so in the run's record
    status = world.cli_json(capsys, "status")
    assert status["model_size"] == {"parameters": 135_000_000, "label": "135M", "small": True}
    assert "warning:   a small model" in world.cli(capsys, "status")
    assert world.oracle.size_asks == 1  # asked once for the model, not once a call


def test_a_preference_from_a_small_model_waits_even_when_preferences_are_auto_approved(world):
    world.settings.auto_approve_preferences = True
    world.oracle.rules = [Rule("coffee", COFFEE, "food/morning_drink", "preference", 0.95),
                          Rule("green tea", TEA, "food/morning_drink", "preference", 0.95)]
    world.say("2026-11-23T08:00:00+09:00", "I like strong black coffee in the morning")
    world.flush("2026-11-23T09:00:00+09:00")
    assert world.layer(COFFEE) == 1  # no size stated: not small, auto-approved as before

    world.oracle.model, world.oracle.size_label = "tiny-270m", "270M"  # the user switched to a small model
    world.say("2026-11-24T08:00:00+09:00", "Switched to green tea in the morning now")
    world.flush("2026-11-24T09:00:00+09:00")
    assert world.layer(COFFEE) == 1 and world.mem(TEA).state == "queued"  # the old version still speaks
    [row] = world.queue()
    assert row["action"] == "supersede" and row["held"] == "small_model" and "small model" in row["reason"]


def test_a_model_of_4_3b_auto_approves_as_before(world, capsys):
    world.oracle.size_label = "4.3B"
    _remember_sendai(world)
    world.clock.now = world.clock.now.replace(hour=22)
    out = world.cli(capsys, "flush", "--seed", "7")
    assert world.layer(SENDAI) == 1 and world.queue() == []
    assert "small model" not in out and "lasting memory +1," in out


def test_an_ollama_model_stating_135m_is_small_and_asked_once(home, capsys):
    oracle = Oracle([Rule("Remember", SENDAI, "home/city", "explicit", 0.95, persona=p)
                     for p in ("base", "lifestyle")])
    with running_oracle_ollama(oracle) as server:
        server.parameter_size = "135M"
        backend = OllamaBackend("llama3.2", host=server.url, timeout_s=10)
        try:
            world = World(home, oracle=backend)
            world.app.settings.background.reflect = world.app.settings.background.diary = False
            world.app.settings.background.lint_llm = False
            world.say("2026-11-23T21:00:00+09:00", "Remember: I live in Sendai")
            world.clock.now = world.clock.now.replace(hour=22)
            report = world.cli_json(capsys, "flush", "--seed", "7")
            assert report["small_model"]["label"] == "135M" and report["small_model"]["model"] == "ollama:llama3.2"
            assert world.mem(SENDAI).state == "queued" and world.queue()[0]["held"] == "small_model"
            assert world.queue()[0]["proposers"] == ["base", "lifestyle"]
            world.say("2026-11-24T21:00:00+09:00", "Remember: I live in Sendai, still")
            world.clock.now = world.clock.now.replace(day=24)
            world.cli(capsys, "flush", "--seed", "7")
            assert [r["path"] for r in server.requests].count("/api/show") == 1  # once for the model
        finally:
            backend.close()


def test_ollama_4_3b_is_not_small(home):
    with running_oracle_ollama(Oracle()) as server:
        server.parameter_size = "4.3B"
        backend = OllamaBackend("llama3.2", host=server.url, timeout_s=10)
        try:
            assert backend.model_size() == ModelSize(4_300_000_000, "4.3B") and not backend.model_size().small
        finally:
            backend.close()


def test_an_unreachable_server_is_not_called_small_and_is_asked_again(home):
    from tests.fakes.fake_ollama import dead_url
    backend = OllamaBackend("llama3.2", host=dead_url(), timeout_s=1)
    try:
        assert backend.model_size() is None
        assert backend.__dict__.get("_model_sizes") == {}  # not remembered: the next ask tries again
    finally:
        backend.close()


def test_labels_and_a_gguf_without_a_label_counted(tmp_path):
    assert parse_size_label("135M") == 135_000_000 and parse_size_label("8x7B") == 56_000_000_000
    assert parse_size_label("4.3B") == 4_300_000_000 and parse_size_label("big") is None
    path = tmp_path / "tiny.gguf"  # GGUF v3: one string key, no size label, two tensors of 6 and 4 elements
    name = b"general.architecture"
    tensors = b"".join(len(n).to_bytes(8, "little") + n + (2).to_bytes(4, "little")
                       + b"".join(d.to_bytes(8, "little") for d in dims) + (0).to_bytes(4, "little")
                       + (0).to_bytes(8, "little")
                       for n, dims in ((b"a.weight", (2, 3)), (b"b.weight", (4, 1))))
    path.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + (2).to_bytes(8, "little") + (1).to_bytes(8, "little")
                     + len(name).to_bytes(8, "little") + name + (8).to_bytes(4, "little")
                     + (5).to_bytes(8, "little") + b"llama" + tensors)
    assert gguf_model_size(path) == ModelSize(10, "10")
    assert gguf_model_size(tmp_path / "missing.gguf") is None
    assert json.dumps(ModelSize.of(134_515_008).to_dict()) == \
        '{"parameters": 134515008, "label": "135M", "small": true}'


def test_the_bundled_model_is_135m_from_its_file_without_loading_it():
    from monchat.core.backends.embedded import EmbeddedBackend
    backend = EmbeddedBackend()
    size = backend.model_size()
    assert size == ModelSize(135_000_000, "135M") and size.small
    assert backend.loads == 0  # only the file's header was read


def test_a_llama_cpp_server_states_its_parameters_in_the_model_list_and_others_state_nothing():
    """llama-server's ``/v1/models`` entries carry ``meta`` (``n_params``, ``n_ctx_train`` …); LM Studio's do not."""
    from monchat.core.backends.openai_compat import OpenAICompatBackend
    from tests.fakes.fake_openai import running_fake_openai
    with running_fake_openai() as server:
        server.models = ["SmolLM2-135M-Instruct.Q4_1.gguf"]
        server.model_extra = {"owned_by": "llamacpp", "meta": {"vocab_type": 2, "n_vocab": 49152,
                                                                "n_ctx_train": 8192, "n_embd": 576,
                                                                "n_params": 134_515_008, "size": 88_000_000}}
        small = OpenAICompatBackend("SmolLM2-135M-Instruct.Q4_1.gguf", base_url=server.url, timeout_s=2.0)
        try:
            assert small.model_size() == ModelSize(134_515_008, "135M") and small.model_size().small
        finally:
            small.close()
        server.model_extra = {}
        named = OpenAICompatBackend("SmolLM2-135M-Instruct.Q4_1.gguf", base_url=server.url, timeout_s=2.0)
        server.models = ["local-model"]
        other = OpenAICompatBackend("local-model", base_url=server.url, timeout_s=2.0)
        try:
            assert named.model_size() == ModelSize(135_000_000, "135M")  # nothing stated: the name says it (issue 39)
            assert other.model_size() is None  # unknown is not small
        finally:
            named.close()
            other.close()


def test_doctor_names_a_small_ollama_model_and_not_a_larger_one(home):
    with running_oracle_ollama(Oracle()) as server:
        for label, warned in (("135M", True), ("4.3B", False)):
            server.parameter_size = label
            backend = OllamaBackend("llama3.2", host=server.url, timeout_s=10)
            try:
                report = backend.doctor()
            finally:
                backend.close()
            sized = [c for c in report.checks if c.code == "small_model"]
            assert bool(sized) == warned and report.ok
            if warned:
                assert sized[0].name == "model size" and "ollama pull gemma3:4b" in sized[0].detail


def test_the_flush_plan_names_the_embedded_model_small_before_anything_is_asked(home):
    """What the flush dialog shows before Start: read from the GGUF header, the model is never loaded."""
    from monchat.app import build_app
    from monchat.core.backends.embedded import EmbeddedBackend
    backend = EmbeddedBackend()
    app = build_app(str(home), pinned_backend=backend)
    try:
        assert app.flush.plan().small_model == {"model": "embedded:SmolLM2-135M-Instruct",
                                                "parameters": 135_000_000, "label": "135M", "small": True}
        assert backend.loads == 0
    finally:
        app.close()


def test_the_interest_profile_is_drawn_when_the_user_approves_what_a_first_flush_held(world, capsys):
    # The first flush with a small model shows nothing yet, so it draws no profile; the user's yes shows a memory
    # and draws it then, not a flush later.
    world.oracle.size_label = "135M"
    _remember_sendai(world)
    world.clock.now = world.clock.now.replace(hour=22)
    world.cli(capsys, "flush", "--seed", "7")
    assert world.cli_json(capsys, "profile")["day"] is None
    assert "No profile yet: it counts your messages behind the memories shown" in world.cli(capsys, "profile")

    [row] = world.queue()
    world.memory.approve(str(row["id"]))
    profile = world.cli_json(capsys, "profile")
    assert profile["day"] == "2026-11-23" and [e["topic"] for e in profile["windows"]["7"]] == ["home"]
