"""Role-play stays role-play: a persona whose conversations are not read at a flush yields no memory,
and a persona that does not receive your memory is sent none.
"""

from __future__ import annotations

import json

from monchat.core.personas.cards import import_card
from monchat.core.personas.library import SurfacePersona
from tests.flush.conftest import Rule, World

CARD = {"spec": "chara_card_v2", "spec_version": "2.0", "data": {
    "name": "Captain Vex", "description": "A space pirate.", "personality": "bold",
    "scenario": "On the bridge of the Nightjar.", "first_mes": "Arr.", "mes_example": "",
    "creator_notes": "", "system_prompt": "", "post_history_instructions": "", "alternate_greetings": [],
    "tags": [], "creator": "", "character_version": "1", "extensions": {}}}


def imported_card(world: World, tmp_path) -> SurfacePersona:
    card = tmp_path / "vex.json"
    card.write_text(json.dumps(CARD), encoding="utf-8")
    persona = import_card(card, set(world.app.personas.surface))
    world.app.personas.save_surface(persona)
    return world.app.personas.surface[persona.id]


def test_an_imported_card_is_not_read_at_a_flush_by_default(home, tmp_path):
    world = World(home)
    persona = imported_card(world, tmp_path)
    assert persona.read_at_flush is False and persona.receives_memory is True


def test_a_role_play_conversation_produces_no_memory_and_the_flush_says_what_it_skipped(home, tmp_path):
    world = World(home)
    world.oracle.rules = [Rule("海賊船", "海賊船の船長をしている", "work/job", kind="explicit"),
                          Rule("紅茶", "紅茶が好き", "drink/tea", kind="explicit")]
    vex = imported_card(world, tmp_path)
    world.say("2026-11-23T09:00:00+09:00", "私は海賊船の船長だ、覚えておけ", persona=vex.id)
    world.say("2026-11-23T09:01:00+09:00", "海賊船の船長として命じる", persona=vex.id)
    world.say("2026-11-23T09:05:00+09:00", "覚えて：紅茶が好き", persona="hana")

    report = world.flush("2026-11-23T10:00:00+09:00")

    assert world.has("紅茶が好き")
    assert not world.has("海賊船の船長をしている")
    assert report.skipped == {vex.id: 2}
    assert any(f"2 message(s) with {vex.id} were archived unread" in note for note in report.notes)
    read = "\n".join(call["user"] for call in world.oracle.filter_calls)
    assert "海賊船" not in read and "紅茶" in read  # the filters never saw the role-play lines
    assert report.messages_archived == 3  # archived all the same: nothing is lost
    assert world.log_files() == []


def test_a_flush_of_role_play_only_asks_no_model_and_archives_it(home, tmp_path):
    world = World(home)
    vex = imported_card(world, tmp_path)
    world.say("2026-11-23T09:00:00+09:00", "錨を上げろ", persona=vex.id)

    report = world.flush("2026-11-23T10:00:00+09:00")

    assert report.llm_calls == 0 and world.oracle.filter_calls == []
    assert report.skipped == {vex.id: 1} and report.messages_archived == 1
    assert world.log_files() == []


def test_turning_read_at_flush_on_lets_its_conversations_count(home, tmp_path):
    world = World(home)
    world.oracle.rules = [Rule("海賊船", "海賊船の船長をしている", "work/job", kind="explicit")]
    vex = imported_card(world, tmp_path)
    vex.read_at_flush = True
    world.app.personas.save_surface(vex)
    world.say("2026-11-23T09:00:00+09:00", "覚えて：海賊船の船長だ", persona=vex.id)

    report = world.flush("2026-11-23T10:00:00+09:00")

    assert world.has("海賊船の船長をしている") and report.skipped == {}


def test_a_persona_that_does_not_receive_memory_gets_a_prompt_without_it(home):
    world = World(home)
    world.oracle.rules = [Rule("紅茶", "紅茶が好き", "drink/tea", kind="explicit")]
    world.say("2026-11-23T09:05:00+09:00", "覚えて：紅茶が好き", persona="hana")
    world.flush("2026-11-23T10:00:00+09:00")
    chat = world.app.chat
    hana = chat.persona("hana")
    assert "紅茶が好き" in chat.system_prompt(hana)

    hana.receives_memory = False
    world.app.personas.save_surface(hana)

    assert "紅茶が好き" not in chat.system_prompt(chat.persona("hana"))
    assert "紅茶が好き" in chat.system_prompt(chat.persona("mira"))
