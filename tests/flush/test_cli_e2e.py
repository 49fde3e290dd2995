"""Done when: a new user's week, through the real CLI and the real ``ollama`` client on a loopback server.

Import a week of Japanese chat → ``status`` says stop → ``flush`` → status ok →
``memory list`` shows memories citing user messages → ``memory approve`` →
``memory history`` shows the old fact superseded by the new one →
``export --markdown`` → the next ``chat -m`` request carries the new memory in
its system message. The filter personas and the judge are played by the oracle
behind the server; everything else is monchat as a user runs it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Judgement, Oracle, Rule

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
JST = timezone(timedelta(hours=9))
SENDAI, KANAZAWA, GUITAR = "仙台に住んでいる", "金沢に住んでいる", "ギターをよく練習する"
GREEN, BARLEY = "朝に緑茶を飲む", "緑茶から麦茶に変えた"

WEEK = [  # (days ago, local time, role, text)
    (7, "08:10", "user", "おはよう。今朝も緑茶を飲んでから出かけた"),
    (7, "08:11", "assistant", "いいね、緑茶は目が覚めるよね"),
    (7, "21:00", "user", "覚えておいて：仙台に住んでる"),
    (7, "21:05", "user", "今夜はギターを1時間練習した"),
    (6, "12:30", "user", "昼はすき焼きを食べた。割り下は少し甘めが好き"),
    (6, "20:30", "user", "夕食のあとまたギターを弾いた"),
    (5, "12:00", "assistant", "犬を飼ってるよね？"),
    (5, "12:01", "user", "え、飼ってないよ？"),
    (4, "22:00", "user", "仕事で疲れた。でもギターは少し練習した"),
    (3, "09:00", "user", "最近は緑茶じゃなくて麦茶に変えた"),
    (2, "10:00", "user", "朝からギターの練習をした"),
    (1, "19:00", "user", "先週引っ越して、今は金沢に住んでる"),
]


def oracle() -> Oracle:
    return Oracle(
        [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
         Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9),
         Rule("すき焼き", "すき焼きは割り下が少し甘めが好き", "food/sukiyaki", "fact", 0.7),
         Rule("犬を飼って", "犬を飼っている", "pets/dog", "fact", 0.9, roles=("assistant",)),
         Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.85, persona="lifestyle"),
         Rule("緑茶を飲んで", GREEN, "drink/daily", "habit", 0.7, persona="lifestyle"),
         Rule("麦茶", BARLEY, "drink/daily", "habit", 0.7, persona="lifestyle")],
        {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9), (GREEN, BARLEY): Judgement("SUPERSEDE", 0.9)})


@pytest.fixture
def server():
    with running_oracle_ollama(oracle()) as srv:
        yield srv


@pytest.fixture
def monchat(home, server, tmp_path):
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "JST-9", "OLLAMA_HOST": server.url,
           "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        env.pop(name, None)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "monchat", *args], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        if check:
            assert done.returncode == 0, f"monchat {' '.join(args)}: {done.stderr}"
        return done
    return run


def week_file(path: Path) -> Path:
    today = datetime.now(JST).replace(second=0, microsecond=0)
    lines = []
    for days_ago, hhmm, role, text in WEEK:
        hour, minute = map(int, hhmm.split(":"))
        when = (today - timedelta(days=days_ago)).replace(hour=hour, minute=minute)
        lines.append(json.dumps({"ts": when.isoformat(), "role": role, "text": text}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_new_users_week_through_the_cli_and_ollama(monchat, server, home, tmp_path):
    monchat("settings", "set", "backend.name", "ollama")
    monchat("settings", "set", "ollama.model", "llama3.2")
    imported = monchat("import", str(week_file(tmp_path / "week.jsonl")))
    assert f"imported {len(WEEK)} of {len(WEEK)}" in imported.stdout

    status = json.loads(monchat("status", "--json").stdout)
    assert status["gate"] == "stop" and status["unflushed_files"] >= 5
    refused = monchat("chat", "-m", "こんにちは", check=False)
    assert refused.returncode != 0 and "flush" in refused.stderr

    flush = json.loads(monchat("flush", "--json", "--seed", "7").stdout)
    assert not server.errors
    assert [p["role"] for p in flush["personas"]] == ["base", "fixed", "fixed", "random"]
    user_days = {day for day, _, role, _ in WEEK if role == "user"}
    # four filter personas, one judge batch, the reflect call and one diary page a day with user messages
    assert flush["llm_calls"] == 5 + 1 + len(user_days)
    assert flush["background"]["stages"] == ["reflect", "profile", "diary"]
    assert flush["dropped"] == 1  # the dog: only the assistant said it
    assert flush["queued"] == 1  # Kanazawa would replace an active Layer 1 memory
    assert flush["superseded"] == 1  # barley tea replaced green tea directly
    assert flush["promoted"]["layer1"] == 2  # Sendai (explicit) and guitar (five days)
    formats = [r["body"]["format"] for r in server.chat_requests() if "format" in r["body"]]
    assert len(formats) == flush["llm_calls"] and all(r["body"]["options"]["num_ctx"] for r in server.chat_requests())

    status = json.loads(monchat("status", "--json").stdout)
    assert status["gate"] == "ok" and status["unflushed_files"] == 0
    assert status["archived_messages"] == len(WEEK) and status["review_queue"] == 1
    assert not list((home / "logs").glob("*.jsonl"))

    exported = [json.loads(line) for line in monchat("export", "--jsonl").stdout.splitlines()]
    assert len(exported) == len({r["id"] for r in exported}) == len(WEEK)
    users = {r["id"] for r in exported if r["role"] == "user"}
    memories = json.loads(monchat("memory", "list", "--all", "--json").stdout)
    assert {m["text"] for m in memories} >= {SENDAI, KANAZAWA, GUITAR, GREEN, BARLEY}
    for memory in memories:
        assert memory["evidence"] and set(memory["evidence"]) <= users
    # The background track: a diary page per day with user messages, three windows, lists for the inbox.
    pages = json.loads(monchat("diary", "--json").stdout)
    assert len(pages) == len(user_days) and all(set(p["messages"]) <= users and p["messages"] for p in pages)
    profile = json.loads(monchat("profile", "--json").stdout)
    assert set(profile["windows"]) == {"7", "30", "90"} and profile["windows"]["7"][0]["topic"] == "hobby"
    assert isinstance(json.loads(monchat("gaps", "--json").stdout), list)
    assert json.loads(monchat("insights", "--json").stdout)[0]["run_id"] == flush["run_id"]
    listed = monchat("memory", "list").stdout
    assert "Waiting for your review" in listed and KANAZAWA in listed

    kanazawa = next(m for m in memories if m["text"] == KANAZAWA)
    approved = monchat("memory", "approve", kanazawa["id"]).stdout
    assert approved.startswith("approved:") and "supersede" in approved
    history = monchat("memory", "history", kanazawa["id"]).stdout.splitlines()
    assert re.match(rf"^   mem-\w+ \[replaced\] {SENDAI} ", history[0])
    assert re.match(rf"^→  {kanazawa['id']} \[active\] {KANAZAWA} ", history[1])

    markdown = monchat("export", "--markdown").stdout
    assert markdown.startswith("# monchat memory")
    assert re.search(rf"^- \[active \d{{4}}-\d\d-\d\d\] {KANAZAWA} \^{kanazawa['id']}$", markdown, re.M)
    assert re.search(rf"^- \[superseded \d{{4}}-\d\d-\d\d\] {SENDAI} \^mem-\w+ → {kanazawa['id']}$", markdown,
                     re.M)
    assert markdown.count("<!-- src: ") == len(memories)

    before = len(server.chat_requests())
    reply = monchat("chat", "-m", "こんにちは")
    assert reply.stdout.strip() == "Hello"
    [request] = server.chat_requests()[before:]
    system = request["body"]["messages"][0]
    assert system["role"] == "system"
    assert f"- {KANAZAWA}" in system["content"] and SENDAI not in system["content"]
    assert f"- {GUITAR}" in system["content"] and BARLEY in system["content"]
    assert request["body"]["messages"][-1] == {"role": "user", "content": "こんにちは"}
