"""``monchat eval`` with each backend (issue 42's "done when"): ``--backend ollama`` through the real ``ollama``
client and ``--backend gemini`` through the real ``google-genai`` client, each against its loopback stand-in in
tests/fakes answering the structured calls as the scripted oracle would. What is checked is the plumbing — the
result's names, the backend and model named, the stand-in's chat text reaching the questions — not a model's score."""

from __future__ import annotations

import json

from monchat.cli import main as cli_main
from monchat.core.evaluation.sets import load_set
from tests.fakes import fake_gemini
from tests.fakes.fake_ollama import running_fake_ollama
from tests.test_eval import en_oracle, run_eval, user_home  # noqa: F401 (user_home is a fixture)

RESULT_NAMES = {"set", "backend", "model", "now", "present", "retired", "never", "invented", "questions"}


def oracle_reply(oracle, messages: list[dict], schema: dict) -> str:
    system = "\n".join(m["content"] for m in messages if m["role"] == "system")
    user = "\n".join(m["content"] for m in messages if m["role"] == "user")
    return json.dumps(oracle.respond(system, user, schema), ensure_ascii=False)


def assert_shaped(result, backend: str, model: str) -> None:
    assert isinstance(result, dict) and RESULT_NAMES <= set(result), result
    assert (result["set"], result["backend"], result["model"]) == ("en-week", backend, model)
    assert set(result["present"]) == {"kept", "of"} and set(result["retired"]) == {"retired", "of"}
    assert set(result["never"]) == {"clean", "of"} and set(result["questions"]) >= {"right", "of"}
    assert result["present"]["of"] == 6 and result["questions"]["of"] == len(load_set("en-week").questions)
    # the stand-in's chat text is what each question got back
    assert [a["reply"] for a in result["questions"]["asked"]] == ["I live in Wakefield."] * result["questions"]["of"]


def test_en_week_through_the_ollama_client_and_a_loopback_ollama(user_home, capsys):  # noqa: F811
    oracle = en_oracle(load_set("en-week"))
    with running_fake_ollama() as server:
        server.structured_reply = lambda body: oracle_reply(oracle, body["messages"], body["format"])
        server.reply_chunks = ["I live in ", "Wakefield."]  # the stand-in's chat text, asked each question
        assert cli_main.main(["settings", "set", "ollama.host", server.url]) == 0
        capsys.readouterr()
        code, result = run_eval(["--set", "en-week", "--json", "--backend", "ollama", "--model", "llama3.2"],
                                None, capsys)
        chats = [r["body"] for r in server.requests if r["path"] == "/api/chat"]
    assert code == 0, result
    assert_shaped(result, "ollama", "llama3.2")
    assert isinstance(result, dict) and result["present"]["kept"] > 0  # the oracle's proposals were kept
    asked = [b for b in chats if "format" not in b]
    assert len(asked) == result["questions"]["of"] and result["questions"]["right"] == 0  # "Wakefield" answers none


def test_en_week_through_the_gemini_client_and_a_loopback_gemini(user_home, monkeypatch, capsys):  # noqa: F811
    oracle = en_oracle(load_set("en-week"))

    def reply(body: dict) -> str:
        system = " ".join(p["text"] for p in (body.get("systemInstruction") or {}).get("parts", []))
        user = "\n".join(p.get("text", "") for c in body["contents"] if c.get("role") == "user" for p in c["parts"])
        schema = body["generationConfig"]["responseJsonSchema"]
        return oracle_reply(oracle, [{"role": "system", "content": system}, {"role": "user", "content": user}],
                            schema)

    server = fake_gemini.start()
    try:
        server.structured_reply = reply
        server.reply_chunks = ["I live in ", "Wakefield."]
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert cli_main.main(["settings", "set", "gemini.base_url", base]) == 0
        capsys.readouterr()
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
        code, result = run_eval(["--set", "en-week", "--json", "--backend", "gemini", "--model", "gemini-2.5-flash"],
                                None, capsys)
        bodies = server.generate_bodies()
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0, result
    assert_shaped(result, "gemini", "gemini-2.5-flash")
    assert isinstance(result, dict) and result["present"]["kept"] > 0
    asked = [b for b in bodies if "responseJsonSchema" not in (b.get("generationConfig") or {})]
    assert len(asked) == result["questions"]["of"] and result["questions"]["right"] == 0
