"""Fuzz over every parser a user's file reaches (issue 25): the import formats, character cards (JSON and a
PNG's ``chara`` chunk) and ``settings.toml``, with hostile values put where each format has a time, a text,
a role, an id or a structure — deep nesting (100,000 levels), NaN, ±Infinity, 1e400, a 5,000-digit number,
true/null/objects where a number or text belongs, a 200 KB string. Each file is read by the real entry point
(``import_file``, ``import_card`` + ``save_card``, ``load_settings``): it is imported, or refused with a
clear error of exit code 2 (nothing written), never any other exception (exit 70). The backup manifest's
fuzzing is in 25a's tests.
"""

from __future__ import annotations

import base64
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monchat.app import build_app
from monchat.core.personas.cards import import_card, save_card
from monchat.core.errors import KnownError
from monchat.core.transfer.importers import import_file
from monchat.core.settings import CHECKS, load_settings
from tests.test_cards import png_with_chunks

UTC = timezone.utc
NOW = datetime(2026, 12, 1, tzinfo=UTC)
DEEP = "[" * 100_000 + "]" * 100_000
JSON_HOSTILE = st.sampled_from([
    "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "9" * 5000, "true", "false", "null", "{}", "[]", DEEP,
    '{"a": ' * 3000 + "1" + "}" * 3000, '"' + "a" * 200_000 + '"', '"2026-11-21T08:00:01Z"', '"yesterday"',
    "1795341720", "1795341720000", "0", "-1", '"\\ud800"', '"user"', '"human"', '""', '"   "',
])
ORDINARY = {"A": "1795341720", "B": '"hello"', "C": '"n"', "D": '"m1"', "E": "true"}

TEMPLATES = {
    "chatgpt": ('[{"id": "c", "title": "t", "mapping": {"n": {"id": "n", "parent": null, "children": [], "message": '
                '{"author": {"role": "user"}, "create_time": A, "content": {"parts": [B]}}}}, "current_node": C}]'),
    "claude": '[{"uuid": "c", "chat_messages": [{"uuid": D, "sender": "human", "text": B, "created_at": A}]}]',
    "sillytavern": ('{"user_name": "You", "character_name": "Ren", "chat_metadata": {}}\n'
                    '{"name": "You", "is_user": E, "send_date": A, "mes": B}\n'),
    "monchat": '{"ts": A, "role": "user", "text": B, "id": D}\n',
}
CARD = '{"spec": "chara_card_v2", "data": {"name": B, "description": A, "first_mes": D, "character_book": C}}'


def fill(template: str, values: dict[str, str]) -> str:
    for slot in "ABCDE":
        template = template.replace(f" {slot}", " " + values.get(slot, ORDINARY[slot]))
    return template


SLOTS = st.dictionaries(st.sampled_from("ABCDE"), JSON_HOSTILE, min_size=1, max_size=3)


@pytest.fixture(scope="module")
def app():
    with tempfile.TemporaryDirectory() as home:
        application = build_app(home, tz=UTC)
        yield application
        application.close()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(TEMPLATES)), values=SLOTS, skip_bad=st.booleans())
def test_a_hostile_export_imports_or_is_refused_with_exit_2(app, tmp_path_factory, kind, values, skip_bad):
    source = tmp_path_factory.mktemp("exports") / ("chat.jsonl" if kind in ("sillytavern", "monchat")
                                                    else "conversations.json")
    source.write_text(fill(TEMPLATES[kind], values), encoding="utf-8")
    before = sorted(p.name for p in app.logbook.files())
    try:
        report = import_file(source, app.logbook, app.archive, default_persona="hana", skip_bad=skip_bad,
                             tz=UTC, now=NOW)
    except KnownError as exc:
        assert exc.exit_code == 2, exc
        assert sorted(p.name for p in app.logbook.files()) == before  # nothing written
    else:
        assert report.imported + report.already_known + len(report.bad_lines) <= max(report.read, 1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=SLOTS, as_png=st.booleans())
def test_a_hostile_card_becomes_a_persona_or_is_refused_with_exit_2(tmp_path_factory, values, as_png):
    from monchat.core.paths import resource_dir
    from monchat.core.personas.library import PersonaRegistry
    folder = tmp_path_factory.mktemp("cards")
    text = fill(CARD, values)
    path = folder / ("card.png" if as_png else "card.json")
    if as_png:
        path.write_bytes(png_with_chunks((b"tEXt", b"chara\x00" + base64.b64encode(text.encode("utf-8")))))
    else:
        path.write_text(text, encoding="utf-8")
    registry = PersonaRegistry(resource_dir("personas"), folder / "surface", folder / "filter",
                               templates_dir=resource_dir("prompts"))
    try:
        persona = import_card(path, set(registry.surface), "", registry.user_surface_dir)
        save_card(registry, persona, path)
    except KnownError as exc:
        assert exc.exit_code == 2, exc
        assert not (folder / "surface").exists() or list((folder / "surface").iterdir()) == []
    else:
        assert persona.id in registry.surface


TOML_HOSTILE = st.sampled_from([
    "nan", "inf", "-inf", "1e400", "9" * 40, "-" + "9" * 40, "true", '"text"', "[]", "{a = 1}",
    "[" * 50_000 + "]" * 50_000, "{a = " * 3000 + "1" + "}" * 3000, '"' + "x" * 200_000 + '"', "1979-05-27",
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(sorted(CHECKS)), value=TOML_HOSTILE)
def test_a_hostile_settings_file_loads_to_checked_values_with_a_warning(tmp_path_factory, key, value):
    path = tmp_path_factory.mktemp("settings") / "settings.toml"
    section, _, name = key.rpartition(".")
    path.write_text(f"[{section}]\n{name} = {value}\n", encoding="utf-8")
    loaded, warnings = load_settings(Path(path))  # never raises: defaults and a warning for what is refused
    current = getattr(getattr(loaded, section.split(".")[0]), name, None) if "." not in section else None
    assert current is None or CHECKS[key](current) or warnings
