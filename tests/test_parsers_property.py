"""Property tests over the card, persona and settings parsers: any input is either accepted as
something every later step can use, or refused with a clear error — never a crash (exit 70).
"""

from __future__ import annotations

import json
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monchat.core.personas.cards import card_to_persona, parse_card, suggest_id
from monchat.core.errors import InputError, KnownError
from monchat.core.paths import resource_dir
from monchat.core.personas.library import PersonaRegistry, parse_filter, parse_surface
from monchat.core.settings import CHECKS, Settings, settings_from_dict

TEXT = st.one_of(st.text(max_size=30),
                 st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=2),
                 st.sampled_from(["{{char}}", "{{user}}", "<BOT>", "\x00", "ハナ", "   "]))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), TEXT)
JSON = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(TEXT, inner, max_size=3)), max_leaves=8)
CARD_DATA = st.fixed_dictionaries({}, optional={
    key: st.one_of(TEXT, JSON) for key in ("name", "nickname", "description", "personality", "scenario",
                                          "first_mes", "mes_example", "system_prompt", "post_history_instructions",
                                          "creator_notes", "alternate_greetings", "extensions", "character_book")})
CARD = st.one_of(
    st.builds(lambda spec, data: {"spec": spec, "data": data},
              st.sampled_from(["chara_card_v2", "chara_card_v3"]), st.one_of(CARD_DATA, JSON)),
    CARD_DATA,  # V1: the fields at the top
    st.dictionaries(TEXT, JSON, max_size=4),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(card=CARD)
def test_a_card_is_refused_clearly_or_becomes_a_persona_that_saves_and_loads(tmp_path_factory, card):
    folder = tmp_path_factory.mktemp("cards")
    registry = PersonaRegistry(resource_dir("personas"), folder / "surface", folder / "filter",
                               templates_dir=resource_dir("prompts"))
    try:
        parsed = parse_card(card)
    except InputError as exc:
        assert exc.message and exc.hint
        return
    persona = card_to_persona(parsed, suggest_id(parsed.name, set(registry.surface)))
    try:
        path = registry.save_surface(persona)
    except KnownError as exc:  # e.g. a field too long or not valid for a persona: said, not crashed
        assert exc.message and exc.hint
        return
    assert registry.problems == {} and registry.surface[persona.id].source == str(path)


PERSONA = st.dictionaries(
    st.sampled_from(["id", "name", "system", "template", "description", "language", "temperature", "greeting",
                     "backend", "model", "extensions", "extensions_json", "talent", "picks", "ignores",
                     "max_items", "style", "instructions"]),
    st.one_of(st.sampled_from(["hana", "x", "Bad Id", "system.md.j2", "nope.j2", "ollama", "timeline",
                               "reinforced"]),
              st.lists(st.sampled_from(["food", "", "mood"]), max_size=3), SCALAR),
)


@settings(max_examples=300, deadline=None)
@given(data=PERSONA)
def test_a_persona_file_is_refused_with_problems_or_round_trips(data):
    for parse in (parse_surface, parse_filter):
        persona, problems = parse(data)
        assert (persona is None) == bool(problems)
        assert all(isinstance(p, str) and p for p in problems)
        if persona is not None:
            again, more = parse(tomllib.loads(persona.to_toml()))
            assert more == [] and again.to_toml() == persona.to_toml()


SETTINGS = st.dictionaries(
    st.sampled_from(["chat", "backend", "ollama", "gemini", "embedded", "gate", "flush", "nonsense"]),
    st.one_of(st.dictionaries(st.sampled_from(sorted({key for values in Settings().to_dict().values()
                                                      for key in values} | {"unknown"})),
                              st.one_of(SCALAR, st.lists(SCALAR, max_size=3),
                                        st.integers(-10**12, 10**12), st.floats()), max_size=6),
              SCALAR), max_size=5)


@settings(max_examples=400, deadline=None)
@given(raw=SETTINGS)
def test_any_settings_file_loads_to_values_that_pass_their_checks(raw):
    loaded, warnings = settings_from_dict(raw)
    values = loaded.to_dict()
    for dotted, check in CHECKS.items():
        section, key = dotted.split(".")
        assert check(values[section][key]), (dotted, values[section][key], warnings)
    assert loaded.gate.warn_files <= loaded.gate.stop_files
    json.dumps(values)  # plain data, as `monchat settings` prints it


# ---- size limits ------------------------------------------------------------------------------
def test_a_huge_card_is_refused_with_a_clear_error_and_leaves_no_persona(home, tmp_path, capsys):
    from monchat.cli import main as cli
    from tests.support.scripted import ScriptedBackend
    card = tmp_path / "huge.json"
    card.write_text(json.dumps({"spec": "chara_card_v2", "data": {"name": "Huge", "description": "d" * 2_000_000}}))
    assert cli.main(["personas", "import", str(card)], pinned_backend=ScriptedBackend()) == 2
    err = capsys.readouterr().err
    assert "at most 1 MB" in err and "Shorten" in err
    assert list((home / "personas" / "surface").iterdir()) == []


def test_a_huge_persona_file_is_skipped_and_reported(tmp_path):
    user = tmp_path / "surface"
    user.mkdir()
    (user / "big.toml").write_text('id = "big"\nname = "Big"\nsystem = "' + "x" * 1_100_000 + '"\n')
    registry = PersonaRegistry(resource_dir("personas"), user, tmp_path / "filter")
    assert "big" not in registry.surface
    assert registry.problems[str(user / "big.toml")] == ["larger than 1 MB; ignored"]
