"""Surface and filter personas, and the strict rendering of the system prompt."""

from __future__ import annotations

import re
from dataclasses import dataclass

import jinja2
import pytest

from monchat.core.errors import PersonaError
from monchat.core.paths import resource_dir
from monchat.core.personas.library import BASE_FILTER_ID, FilterPersona, PersonaRegistry, remove_filter_persona
from monchat.core.prompts import PromptLibrary
from monchat.core.settings import Settings

SHIPPED = resource_dir("personas")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
SURFACE_IDS = sorted(p.stem for p in (SHIPPED / "surface").glob("*.toml"))


@dataclass
class Item:
    text: str


@pytest.fixture
def registry(tmp_path) -> PersonaRegistry:
    return PersonaRegistry(SHIPPED, tmp_path / "user" / "surface", tmp_path / "user" / "filter")


@pytest.fixture
def prompts() -> PromptLibrary:
    return PromptLibrary(resource_dir("prompts"))


def test_at_least_three_surface_personas_ship_and_all_are_valid(registry):
    assert len(SURFACE_IDS) >= 3
    assert sorted(registry.surface) == SURFACE_IDS
    assert registry.problems == {}


@pytest.mark.parametrize("persona_id", SURFACE_IDS)
def test_every_shipped_surface_persona_renders_with_and_without_memory(registry, prompts, persona_id):
    persona = registry.surface_persona(persona_id)
    empty = prompts.system_prompt(persona, [], [])
    assert prompts.persona_system_text(persona) in empty
    assert "##" not in empty  # no memory headings without memory
    layer1 = [Item("朝はいつもコーヒー"), Item("Lives in Sendai")]
    layer2 = [Item("昨日はすき焼き、割り下は少し甘め")]
    full = prompts.system_prompt(persona, layer1, layer2)
    for item in layer1 + layer2:
        assert f"- {item.text}" in full
    assert full.index(layer1[1].text) < full.index(layer2[0].text)  # Layer 1 before Layer 2
    heading = "ユーザーについて覚えていること" if persona.language == "ja" else "What you know about the user"
    assert heading in full
    assert prompts.system_prompt(persona, layer1, layer2) == full  # deterministic
    assert "{{" not in full and "{%" not in full


def test_memory_text_is_data_not_template(registry, prompts):
    persona = registry.surface_persona("mira")
    text = "{{ 7*7 }} {% for x in range(3) %}x{% endfor %}"
    rendered = prompts.system_prompt(persona, [Item(text)], [])
    assert f"- {text}" in rendered and "49" not in rendered


def test_the_environment_is_strict(registry, prompts):
    persona = registry.surface_persona("hana")
    with pytest.raises(jinja2.UndefinedError):
        prompts.render("system.md.j2", persona=persona, persona_text="x", layer1=[])  # layer2 missing
    with pytest.raises(jinja2.UndefinedError):
        prompts.render("system.md.j2", persona=persona, persona_text="x", layer1=[object()], layer2=[])


def test_the_default_persona_is_hana_and_speaks_japanese(registry, prompts):
    assert Settings().chat.persona == "hana"
    hana = registry.surface_persona("hana")
    assert hana.language == "ja"
    assert JAPANESE.search(hana.name) and JAPANESE.search(hana.greeting)
    system = prompts.system_prompt(hana, [], [])
    assert "日本語" in system
    assert len(JAPANESE.findall(system)) > len(system) // 3


def test_a_user_persona_overrides_a_shipped_one(tmp_path):
    user_surface = tmp_path / "user" / "surface"
    user_surface.mkdir(parents=True)
    (user_surface / "hana.toml").write_text(
        'id = "hana"\nname = "Hana (mine)"\nlanguage = "en"\nsystem = "You are my Hana."\n', encoding="utf-8")
    registry = PersonaRegistry(SHIPPED, user_surface, tmp_path / "user" / "filter")
    hana = registry.surface_persona("hana")
    assert hana.name == "Hana (mine)"
    assert hana.source == str(user_surface / "hana.toml")
    assert "hana" in registry.shipped_surface_ids
    assert sorted(registry.surface) == SURFACE_IDS  # overridden, not added


def user_filter_registry(tmp_path) -> PersonaRegistry:
    registry = PersonaRegistry(SHIPPED, tmp_path / "user" / "surface", tmp_path / "user" / "filter")
    (tmp_path / "user" / "filter").mkdir(parents=True)
    registry.save_filter(FilterPersona(id="music", name="Music", talent="songs", picks=["songs"], ignores=["weather"]))
    return registry


def test_removing_a_fixed_filter_persona_drops_it_from_the_fixed_two(tmp_path):
    registry = user_filter_registry(tmp_path)
    flush = Settings().flush
    flush.fixed_personas = ["music", "project"]
    assert registry.is_users_filter("music")
    assert remove_filter_persona(registry, flush, "music") is True
    assert "music" not in registry.filters and flush.fixed_personas == ["project"]


def test_removing_a_filter_persona_that_is_not_fixed_leaves_the_fixed_two(tmp_path):
    registry = user_filter_registry(tmp_path)
    flush = Settings().flush
    assert remove_filter_persona(registry, flush, "music") is False
    assert flush.fixed_personas == ["lifestyle", "project"]


@pytest.mark.parametrize("persona_id", [BASE_FILTER_ID, "lifestyle"])
def test_base_and_shipped_filter_personas_cannot_be_removed_and_stay_fixed(tmp_path, persona_id):
    registry = user_filter_registry(tmp_path)
    flush = Settings().flush
    flush.fixed_personas = [persona_id]
    assert not registry.is_users_filter(persona_id)
    with pytest.raises(PersonaError):
        remove_filter_persona(registry, flush, persona_id)
    assert flush.fixed_personas == [persona_id] and persona_id in registry.filters


def test_a_bad_persona_file_is_reported_and_skipped(tmp_path):
    user_surface = tmp_path / "user" / "surface"
    user_surface.mkdir(parents=True)
    (user_surface / "broken.toml").write_text('id = "broken"\nname = "unterminated', encoding="utf-8")
    (user_surface / "nameless.toml").write_text('id = "nameless"\nsystem = "hi"\n', encoding="utf-8")
    (user_surface / "hot.toml").write_text('id = "hot"\nname = "Hot"\nsystem = "hi"\ntemperature = 9\n',
                                           encoding="utf-8")
    (user_surface / "BadId.toml").write_text('id = "Bad Id"\nname = "x"\nsystem = "hi"\n', encoding="utf-8")
    (user_surface / "good.toml").write_text('id = "good"\nname = "Good"\nsystem = "hi"\n', encoding="utf-8")
    registry = PersonaRegistry(SHIPPED, user_surface, tmp_path / "user" / "filter")
    problems = {k.rsplit("/", 1)[-1]: " ".join(v) for k, v in registry.problems.items()}
    assert set(problems) == {"broken.toml", "nameless.toml", "hot.toml", "BadId.toml"}
    assert "TOML" in problems["broken.toml"]
    assert "name is required" in problems["nameless.toml"]
    assert "temperature" in problems["hot.toml"]
    assert "lowercase" in problems["BadId.toml"]
    assert "good" in registry.surface
    assert not {"broken", "nameless", "hot"} & set(registry.surface)
    assert set(SURFACE_IDS) <= set(registry.surface)  # the rest still load
    with pytest.raises(PersonaError) as caught:
        registry.surface_persona("nameless")
    assert "hana" in caught.value.hint


def test_a_user_copy_of_the_base_filter_is_refused(tmp_path):
    shipped = SHIPPED
    user_filter = tmp_path / "user" / "filter"
    user_filter.mkdir(parents=True)
    (user_filter / "base.toml").write_text(
        'id = "base"\nname = "My base"\ntalent = "everything"\npicks = ["all"]\nignores = ["nothing"]\n',
        encoding="utf-8")
    registry = PersonaRegistry(shipped, tmp_path / "user" / "surface", user_filter)
    base = registry.filter_persona("base")
    assert base.name != "My base" and base.locked
    assert base.source == str(shipped / "filter" / "base.toml")
    assert "locked" in " ".join(registry.problems[str(user_filter / "base.toml")])
    with pytest.raises(PersonaError):
        registry.save_filter(base)
    with pytest.raises(PersonaError):
        registry.delete_filter("base")
    assert BASE_FILTER_ID not in [p.id for p in registry.pool()]


def test_the_shipped_filter_personas_are_valid(registry):
    assert {BASE_FILTER_ID, "lifestyle", "project", "emotional"} <= set(registry.filters)
    assert registry.filter_persona(BASE_FILTER_ID).style == "timeline"
    for persona in registry.filters.values():
        assert persona.picks and persona.ignores and 0 <= persona.max_items <= 3


def test_card_extensions_with_null_round_trip_through_a_saved_persona(tmp_path):
    from monchat.core.personas.library import PersonaRegistry, SurfacePersona
    from monchat.core.paths import resource_dir

    registry = PersonaRegistry(resource_dir("personas"), tmp_path / "surface", tmp_path / "filter")
    extensions = {"depth_prompt": {"prompt": "", "depth": 4, "role": None}, "fav": None, "tags": [1, None]}
    registry.save_surface(SurfacePersona(id="card", name="Card", system="You are Card.", extensions=extensions))
    registry.reload()
    assert registry.surface_persona("card").extensions == extensions
