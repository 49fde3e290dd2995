"""Character cards (V1/V2/V3, JSON and PNG) → surface personas."""

from __future__ import annotations

import base64
import json
import struct
import zlib

import pytest

from monchat.core.personas.cards import (
    card_json_from_png, import_card, parse_card, png_text_chunks, read_card_json, suggest_id)
from monchat.core.errors import InputError
from monchat.core.personas.library import parse_surface

EXTENSIONS = {"depth_prompt": {"prompt": "stay in character", "depth": 4}, "talkativeness": "0.5",
              "x_custom": {"nested": [1, 2, 3]}}


def v2_card(**overrides) -> dict:
    data = {
        "name": "Aoi", "description": "{{char}} is a calm librarian who helps {{user}} find books.",
        "personality": "quiet, precise", "scenario": "A small library at dusk.",
        "first_mes": "Welcome back, {{user}}.", "mes_example": "<START>\n{{user}}: hi\n{{char}}: hello",
        "creator_notes": "Works best with short messages.", "system_prompt": "",
        "post_history_instructions": "Answer in two sentences.", "alternate_greetings": ["Oh, it's you."],
        "character_book": {"entries": [
            {"keys": ["library"], "content": "The library never closes.", "constant": True, "enabled": True,
             "insertion_order": 2, "extensions": {}},
            {"keys": ["cat"], "content": "There is a cat.", "constant": False, "enabled": True,
             "insertion_order": 1, "extensions": {}},
            {"keys": [], "content": "Disabled lore.", "constant": True, "enabled": False,
             "insertion_order": 0, "extensions": {}},
        ], "extensions": {}},
        "tags": ["calm"], "creator": "someone", "character_version": "1", "extensions": EXTENSIONS,
    }
    data.update(overrides)
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": data}


def png_with_chunks(*chunks: tuple[bytes, bytes]) -> bytes:
    """A valid 1×1 PNG with the given (type, data) chunks before IDAT."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00")
    body = chunk(b"IHDR", ihdr) + b"".join(chunk(k, d) for k, d in chunks) + chunk(b"IDAT", idat)
    return b"\x89PNG\r\n\x1a\n" + body + chunk(b"IEND", b"")


def text_chunk(keyword: str, card: dict) -> tuple[bytes, bytes]:
    payload = base64.b64encode(json.dumps(card, ensure_ascii=False).encode("utf-8"))
    return b"tEXt", keyword.encode("latin-1") + b"\x00" + payload


def test_v2_json_maps_fields_and_keeps_extensions(tmp_path):
    path = tmp_path / "aoi.json"
    path.write_text(json.dumps(v2_card()), encoding="utf-8")
    persona = import_card(path, taken_ids={"hana"})
    assert persona.id == "aoi" and persona.name == "Aoi" and persona.language == "en"
    assert "Aoi is a calm librarian who helps the user find books." in persona.system
    assert "Personality: quiet, precise" in persona.system
    assert "Scenario: A small library at dusk." in persona.system
    assert "The library never closes." in persona.system  # constant lore entry
    assert "There is a cat." not in persona.system and "Disabled lore." not in persona.system
    assert persona.greeting == "Welcome back, the user."
    assert persona.example_dialogue.endswith("Aoi: hello")
    assert persona.post_history_instructions == "Answer in two sentences."
    assert persona.creator_notes == "Works best with short messages."
    assert "Works best" not in persona.system  # creator notes never reach the model
    assert persona.extensions == EXTENSIONS
    _, problems = parse_surface({k: v for k, v in vars(persona).items() if k != "source"})
    assert problems == []


def test_system_prompt_comes_first_when_present():
    card = parse_card(v2_card(system_prompt="You are {{char}}. Never break character."))
    from monchat.core.personas.cards import card_to_persona
    persona = card_to_persona(card, "aoi")
    assert persona.system.startswith("You are Aoi. Never break character.")


def test_png_prefers_ccv3_over_chara(tmp_path):
    v3 = v2_card(name="Aoi V3")
    v3["spec"], v3["spec_version"] = "chara_card_v3", "3.0"
    v3["data"]["nickname"] = "Aoi-chan"
    raw = png_with_chunks(text_chunk("chara", v2_card()), text_chunk("ccv3", v3))
    path = tmp_path / "card.png"
    path.write_bytes(raw)
    assert set(png_text_chunks(raw)) == {"chara", "ccv3"}
    persona = import_card(path)
    assert persona.name == "Aoi V3"
    assert "Aoi-chan is a calm librarian" in persona.system  # nickname replaces {{char}}


def test_png_with_chara_only_and_japanese_text(tmp_path):
    card = v2_card(name="葵", description="{{char}}は静かな司書。{{user}}の本探しを手伝う。", personality="",
                   scenario="", first_mes="おかえりなさい、{{user}}さん。")
    path = tmp_path / "aoi.png"
    path.write_bytes(png_with_chunks(text_chunk("chara", card)))
    persona = import_card(path, taken_ids={suggest_id("葵")})
    assert persona.language == "ja"
    assert persona.system.startswith("葵は静かな司書。ユーザーの本探しを手伝う。")
    assert persona.greeting == "おかえりなさい、ユーザーさん。"
    assert persona.id == suggest_id("葵") + "-2"  # a kanji name gets a stable fallback id, kept unique


def test_v1_flat_card():
    card = parse_card({"name": "Old", "description": "An old card.", "first_mes": "Hi."})
    assert card.spec == "v1" and card.name == "Old"


@pytest.mark.parametrize("content, needle", [
    (b"just text", "not valid JSON"),
    (json.dumps([1, 2]).encode(), "not an object"),
    (json.dumps({"hello": "world"}).encode(), "not a character card"),
    (json.dumps({"spec": "chara_card_v2"}).encode(), "no 'data' object"),
    (json.dumps(v2_card(name="  ")).encode(), "has no name"),
    (b"\xff\xfe\x00garbage", "neither a PNG image nor UTF-8 JSON"),
])
def test_non_cards_are_rejected_with_the_reason(tmp_path, content, needle):
    path = tmp_path / "thing.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        import_card(path)
    assert needle in info.value.message


def test_png_without_card_chunk(tmp_path):
    path = tmp_path / "plain.png"
    path.write_bytes(png_with_chunks((b"tEXt", b"Comment\x00hello")))
    with pytest.raises(InputError, match="no 'chara' or 'ccv3'"):
        read_card_json(path)


def test_png_with_broken_base64():
    raw = png_with_chunks((b"tEXt", b"chara\x00!!!not base64!!!"))
    with pytest.raises(InputError, match="not base64-encoded JSON"):
        card_json_from_png(raw)


def test_truncated_png():
    raw = png_with_chunks(text_chunk("chara", v2_card()))
    with pytest.raises(InputError, match="cut short"):
        png_text_chunks(raw[:60])


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="could not be read"):
        import_card(tmp_path / "nope.png")


def test_suggest_id_is_unique_and_valid():
    assert suggest_id("Aoi Sakura") == "aoi-sakura"
    assert suggest_id("Aoi", {"aoi", "aoi-2"}) == "aoi-3"
    assert suggest_id("Ümlaut Çafé") == "umlaut-cafe"
    assert suggest_id("ハナ") == "hana"  # kana are spelled out


def test_japanese_card_names_give_readable_ids():
    assert suggest_id("きょうこ") == "kyouko" and suggest_id("ユッキー") == "yukkii"
    assert suggest_id("サクラ・ミク") == "sakura-miku" and suggest_id("しゃーろっと") == "shaarotto"
    assert suggest_id("初音ミク") == "miku"
    kanji = suggest_id("雪乃")  # nothing to spell: a stable id that differs between names
    assert kanji.startswith("card-") and kanji == suggest_id("雪乃") != suggest_id("葵")
    assert suggest_id("ハナ", {"hana"}) == "hana-2"


def test_user_in_a_card_becomes_the_users_name(tmp_path):
    path = tmp_path / "aoi.json"
    path.write_text(json.dumps(v2_card()), encoding="utf-8")
    persona = import_card(path, set(), user_name="Kenji")
    assert persona.greeting == "Welcome back, Kenji." and "helps Kenji find books" in persona.system
    assert import_card(path).greeting == "Welcome back, the user."


def test_the_cli_imports_a_png_card_as_a_surface_persona(tmp_path, home, capsys):
    from monchat.cli import main as cli
    from monchat.app import build_app

    card = v2_card(name="葵", extensions={**EXTENSIONS, "nullable": None})
    path = tmp_path / "aoi.png"
    path.write_bytes(png_with_chunks(text_chunk("chara", card)))
    assert cli.main(["personas", "import", str(path)]) == 0
    out = capsys.readouterr().out
    app = build_app(str(home))
    [imported] = [p for p in app.personas.surface.values() if p.name == "葵"]
    assert imported.id in out and f"--persona {imported.id}" in out
    assert imported.extensions["nullable"] is None and imported.extensions["x_custom"] == {"nested": [1, 2, 3]}
    assert "calm librarian" in imported.system
    app.close()


def test_the_cli_refuses_a_file_that_is_not_a_card(tmp_path, capsys):
    from monchat.cli import main as cli

    path = tmp_path / "notes.json"
    path.write_text('{"hello": "world"}', encoding="utf-8")
    assert cli.main(["personas", "import", str(path)]) == InputError.exit_code
    assert "monchat:" in capsys.readouterr().err
