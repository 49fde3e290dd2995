"""``monchat flush`` and ``monchat memory …`` words over the same services (in-process, pinned oracle)."""

from __future__ import annotations

import re

import pytest

from monchat.core.errors import InputError, NotFound
from monchat.cli.main import build_parser
from monchat.cli.memory import cmd_memory
from tests.flush.conftest import Judgement, Rule

SENDAI, KANAZAWA, GUITAR = "仙台に住んでいる", "金沢に住んでいる", "ギターを練習する"
LIST_KEYS = {"id", "layer", "state", "text", "slot", "kind", "confidence", "evidence", "valid_at", "invalid_at",
             "superseded_by"}


@pytest.fixture
def week(world):
    world.oracle.rules = [Rule("仙台", SENDAI, "home/city", "explicit", 0.9),
                          Rule("金沢", KANAZAWA, "home/city", "explicit", 0.9),
                          Rule("ギター", GUITAR, "hobby/guitar", "habit", 0.7),
                          Rule("犬を飼って", "犬を飼っている", "pets/dog", "fact", 0.9, roles=("assistant",))]
    world.oracle.judgements = {(SENDAI, KANAZAWA): Judgement("SUPERSEDE", 0.9)}
    world.say("2026-11-23T21:00:00+09:00", "今夜はギターを1時間練習した")
    world.say("2026-11-23T21:10:00+09:00", "覚えておいて：仙台に住んでる")
    world.say("2026-11-24T12:00:00+09:00", "犬を飼ってるよね？", role="assistant")
    world.say("2026-11-24T12:01:00+09:00", "え、飼ってないよ？")
    world.clock.now = world.clock.now.replace(day=24, hour=13)
    return world


def test_flush_json_has_the_promised_keys(week, capsys):
    data = week.cli_json(capsys, "flush", "--seed", "3")
    assert [p["role"] for p in data["personas"]] == ["base", "fixed", "fixed", "random"]
    assert all(set(p) == {"id", "role"} for p in data["personas"])
    assert data["personas"][0]["id"] == "base"
    assert {p["id"] for p in data["personas"][1:3]} == set(week.app.settings.flush.fixed_personas)
    assert data["seed"] == 3
    assert data["llm_calls"] == 4 + 1 + 2 and data["dropped"] == 1  # filters, reflect, a diary page for 2 days
    assert data["promoted"] == {"layer1": 1, "layer2": 1}
    assert data["superseded"] == 0 and data["queued"] == 0
    assert isinstance(data["duration_s"], float) and data["duration_s"] >= 0
    assert data["gate"] == "ok" and data["nothing_to_flush"] is False


def test_flush_in_words(week, capsys):
    out = week.cli(capsys, "flush", "--seed", "3")
    assert out.startswith("Flush 1 done.")
    assert ("personas: base (always reads), lifestyle (you chose), project (you chose), emotional (picked this time); "
            "seed 3") in out
    assert "lasting memory +1, recent memory +1, replaced 0, sent to review 0, dropped 1" in out
    assert "← 2026-11-23T21:10 «覚えておいて：仙台に住んでる»" in out
    assert "dropped (base): 犬を飼っている" in out
    assert out.rstrip().endswith("gate: ok")


def test_memory_list_show_history_approve(week, capsys):
    week.flush()
    listed = week.cli_json(capsys, "memory", "list")
    assert {m["text"] for m in listed} == {SENDAI, GUITAR}
    for item in listed:
        assert LIST_KEYS <= set(item)
        assert all(isinstance(e, str) for e in item["evidence"])
    sendai = next(m for m in listed if m["text"] == SENDAI)
    assert (sendai["layer"], sendai["state"], sendai["slot"], sendai["kind"]) == (1, "active", "home/city", "explicit")

    week.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    week.flush("2026-11-29T20:00:00+09:00")
    out = week.cli(capsys, "memory", "list")
    assert "Waiting for your review" in out and f"(replaces: {SENDAI})" in out
    queued = week.mem(KANAZAWA)
    [row] = week.queue()

    shown = week.cli_json(capsys, "memory", "show", queued.id)
    assert shown["state"] == "queued"
    assert [e["text"] for e in shown["evidence_messages"]] == ["先週引っ越して、今は金沢にいる"]
    assert {e["role"] for e in shown["evidence_messages"]} == {"user"}
    text = week.cli(capsys, "memory", "show", week.mem(SENDAI).id)
    assert "← 2026-11-23T21:10 user: 覚えておいて：仙台に住んでる" in text

    approved = week.cli_json(capsys, "memory", "approve", str(row["id"]))
    assert approved == {"queue": row["id"], "memory_id": queued.id, "action": "supersede", "result": "approved"}
    history = week.cli_json(capsys, "memory", "history", week.mem(SENDAI).id)
    assert [h["text"] for h in history] == [SENDAI, KANAZAWA]
    assert history[0]["superseded_by"] == history[1]["id"]
    assert history[0]["invalid_at"] == history[1]["valid_at"]
    words = week.cli(capsys, "memory", "history", queued.id)
    assert re.search(rf"^   mem-\w+ \[replaced\] {SENDAI} \(from 2026-11-23T21:10 until 2026-11-29T19:00\)$",
                     words, re.M)
    assert re.search(rf"^→  {queued.id} \[active\] {KANAZAWA}", words, re.M)
    everything = {m["text"]: m for m in week.cli_json(capsys, "memory", "list", "--all")}
    assert everything[SENDAI]["state"] == "superseded"
    assert SENDAI not in {m["text"] for m in week.cli_json(capsys, "memory", "list")}


def test_memory_reject_edit_forget_pin(week, capsys):
    week.flush()
    week.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    week.flush("2026-11-29T20:00:00+09:00")

    rejected = week.cli_json(capsys, "memory", "reject", week.mem(KANAZAWA).id)
    assert rejected["result"] == "rejected"
    assert week.mem(KANAZAWA).state == "rejected" and week.mem(SENDAI).state == "active"
    assert KANAZAWA not in week.prompt() and SENDAI in week.prompt()

    old = week.mem(SENDAI)
    edited = week.cli_json(capsys, "memory", "edit", old.id, "仙台の", "青葉区に住んでいる")
    assert edited["text"] == "仙台の 青葉区に住んでいる" and edited["state"] == "active"
    assert week.mem(SENDAI).superseded_by == edited["id"]
    assert [h["id"] for h in week.cli_json(capsys, "memory", "history", edited["id"])] == [old.id, edited["id"]]
    assert "青葉区" in week.prompt() and f"- {SENDAI}" not in week.prompt()
    assert set(edited["evidence"]) == set(old.evidence)

    pinned = week.cli_json(capsys, "memory", "pin", week.mem(GUITAR).id)
    assert pinned["pinned"] == 1 and pinned["state"] == "active" and pinned["layer"] == 1

    forgotten = week.cli_json(capsys, "memory", "forget", edited["id"])
    assert forgotten["state"] == "forgotten" and forgotten["layer"] == 0
    assert "青葉区" not in week.prompt()
    assert edited["id"] in {m["id"] for m in week.cli_json(capsys, "memory", "list", "--all")}
    assert "forgotten" in week.cli(capsys, "memory", "show", edited["id"])


def test_memory_errors_are_known_errors(week):
    week.flush()
    parse = build_parser().parse_args
    with pytest.raises(NotFound):
        cmd_memory(week.app, parse(["memory", "show", "mem-00000000"]))
    with pytest.raises(InputError):
        cmd_memory(week.app, parse(["memory", "show"]))
    with pytest.raises(NotFound):
        cmd_memory(week.app, parse(["memory", "approve", week.mem(SENDAI).id]))  # nothing waits for review
    with pytest.raises(InputError):
        cmd_memory(week.app, parse(["memory", "edit", week.mem(SENDAI).id]))


ENTRY = re.compile(r"^- \[(\w+) (\d{4}-\d{2}-\d{2})\] (.+?) \^(mem-[0-9a-f]{8})( → mem-[0-9a-f]{8})?\n"
                   r"  <!-- key: (\S+) · kind: (\w+) · confidence: [\d.]+ · days: \d+ -->\n"
                   r"  <!-- src: ([\w, ]+) -->$", re.M)


def test_export_markdown_is_one_readable_entry_per_memory(week, capsys):
    week.flush()
    week.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    week.flush("2026-11-29T20:00:00+09:00")
    week.memory.approve(week.mem(KANAZAWA).id)

    text = week.cli(capsys, "export", "--markdown")
    assert text.startswith("# monchat memory\n")
    entries = {m.group(4): m for m in ENTRY.finditer(text)}
    everything = week.store.all()
    assert set(entries) == {m.id for m in everything}
    assert text.count("^mem-") == len(everything)
    for memory in everything:
        entry = entries[memory.id]
        assert entry.group(3) == memory.text and entry.group(6) == memory.slot and entry.group(7) == memory.kind
        assert entry.group(8) == ", ".join(memory.evidence)
        assert entry.group(2) == memory.valid_at[:10]
    sendai = entries[week.mem(SENDAI).id]
    assert sendai.group(1) == "superseded" and sendai.group(5) == f" → {week.mem(KANAZAWA).id}"
    assert entries[week.mem(KANAZAWA).id].group(1) == "active"
    assert text.index("## Layer 1 — lasting") < text.index(KANAZAWA) < text.index("## History")
    assert week.app.paths.memory_md.read_text(encoding="utf-8") == text


# The program's vocabulary the terminal's words must not show (``--json`` keeps its keys: they are an API).
PROGRAM_WORDS = re.compile(r"layer ?[12]|supersed|\b(?:hot|warm|cold|frozen)\b|\((?:fixed|random)\)", re.I)


def test_flush_status_and_show_say_it_in_plain_words(week, capsys):
    first = week.cli(capsys, "flush", "--seed", "3")
    assert "to lasting" in first and "to recent" in first
    week.say("2026-11-29T19:00:00+09:00", "先週引っ越して、今は金沢にいる")
    week.clock.now = week.clock.now.replace(day=29, hour=20)
    second = week.cli(capsys, "flush", "--seed", "3")
    assert "sent to review 1" in second
    assert "1 waiting for your review: see them with `monchat memory queue`" in second
    status = week.cli(capsys, "status")
    assert "memory:    1 lasting, 0 recent, 1 waiting for your review\n" in status  # waiting is not recent (#45)
    [row] = week.queue()
    week.cli_json(capsys, "memory", "approve", str(row["id"]))
    shown = week.cli(capsys, "memory", "show", week.mem(SENDAI).id)
    assert f"replaced by {week.mem(KANAZAWA).id}" in shown
    for text in (first, second, status, shown):
        assert not PROGRAM_WORDS.search(text), PROGRAM_WORDS.search(text)
