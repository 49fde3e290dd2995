"""The diary's days and files, where the mutmut run of ``core/background/diary.py`` had not reached (issue 44).

``write_pages`` decides which days a flush asks a page for (each day the user spoke, each owed day that still has
the user's lines; never a day only the assistant spoke), what each day's request holds (that day's user lines,
never another day's; the day's own replies kept back to refuse a page in the assistant's words; the language set,
else the day's; the topics of that day's memories), how many days are asked at once (``flush.parallel``, no more),
and what the flush report says (each day's errors and notes in the order of the days, the progress, a cancel
before any call). ``diary_schema`` is the shape the model is held to; ``render_markdown`` and ``write_files`` are
the page a user opens in ``diary/``. A stand-in backend, no server."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

import jsonschema
import pytest

from monchat.app import build_app
from monchat.core.asking.baton import BATON
from monchat.core.asking.records import FlushCancelled
from monchat.core.background.diary import CITED_MAX, PAGE_MAX, diary_schema, render_markdown, write_files, write_pages
from monchat.core.background.track import Proposals
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from monchat.core.store.background import BackgroundStore
from monchat.core.types import Message, Turn
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
PROMPTS = PromptLibrary(resource_dir("prompts"))
AGAIN = "A page written for this day before was not kept"


@pytest.fixture
def store(home):
    app = build_app(str(home), tz=UTC)
    yield BackgroundStore(app.store)
    app.close()


def line(mid: str, day: str, hour: int, text: str, role: str = "user") -> Message:
    return Message(id=mid, ts=f"{day}T{hour:02}:00:00+00:00", role=role, text=text, persona="mira")


def day_of(dt: datetime) -> str:
    return dt.astimezone(UTC).date().isoformat()


def retell(system: str, turns: list[Turn], schema: dict) -> dict:
    """A model that retells the first line it is shown, citing it."""
    first = next(json.loads(raw) for raw in turns[0].content.splitlines() if raw.startswith("{"))
    return {"text": first["text"], "cited": [first["id"]]}


def shown_lines(turns: list[Turn]) -> list[str]:
    return [json.loads(raw)["text"] for raw in turns[0].content.splitlines() if raw.startswith("{")]


class FourSlots(ScriptedBackend):
    PARALLEL_CALLS = 4  # a server that takes four calls at once: the diary's setting alone bounds them


def run(store, readable, answers, owed=(), parallel=1, cancel=None, language="English"):
    backend = FourSlots().enqueue(*answers)
    proposals, progress = Proposals(), []
    pages = write_pages(backend, PROMPTS, store, readable, [], day_of, proposals, progress.append,
                        cancel or threading.Event(), language, lambda persona: True, owed, parallel)
    return pages, proposals, progress, backend


SAID = [line("a1", "2026-12-03", 8, "Walked along the river to the old bridge."),
        line("r1", "2026-12-03", 9, "That sounds like a lovely walk by the water.", "assistant"),
        line("r2", "2026-12-04", 9, "Only the assistant spoke on this day.", "assistant"),
        line("b1", "2026-12-05", 10, "Baked bread with rye flour for the first time."),
        line("b2", "2026-12-05", 7, "Woke up early and read a novel about sailors.")]


def test_a_page_is_asked_for_each_day_the_user_spoke_with_that_days_lines_alone(store):
    pages, proposals, progress, backend = run(store, SAID, [retell, retell])
    assert [p.day for p in pages] == ["2026-12-03", "2026-12-05"] == proposals.diary_days
    assert [shown_lines(turns) for _kind, _system, turns, _schema in backend.history] == [
        ["Walked along the river to the old bridge."],
        ["Woke up early and read a novel about sailors.", "Baked bread with rye flour for the first time."]]
    assert [(p.text, p.messages) for p in pages] == [("Walked along the river to the old bridge.", ["a1"]),
                                                     ("Woke up early and read a novel about sailors.", ["b2"])]
    assert not any(AGAIN in turns[0].content for _kind, _system, turns, _schema in backend.history)
    assert proposals.usage.calls == 2 and proposals.errors == [] and proposals.notes == []
    assert [(p.done, p.total, p.message) for p in progress] == [
        (0, 2, "writing the diary of 2 day(s)"), (1, 2, "drafted the diary of 2026-12-03"),
        (2, 2, "drafted the diary of 2026-12-05")]
    assert {str(p.stage) for p in progress} == {"diary"} and {p.persona for p in progress} == {None}


def test_an_owed_day_is_asked_for_again_saying_so_and_one_whose_lines_are_gone_is_not(store):
    pages, proposals, progress, backend = run(store, SAID[:3], [retell, retell],
                                              owed=["2026-12-01", "2026-12-05"])
    assert [p.day for p in pages] == ["2026-12-03"]  # 2026-12-05's lines are not in this flush nor archived
    assert proposals.diary_days == ["2026-12-03"] and len(backend.history) == 1
    pages, proposals, progress, backend = run(store, SAID, [retell, retell], owed=["2026-12-05"])
    assert proposals.diary_days == ["2026-12-03", "2026-12-05"]
    assert [AGAIN in turns[0].content for _kind, _system, turns, _schema in backend.history] == [False, True]
    assert [p.message for p in progress][-1] == "drafted the diary of 2026-12-05"


def test_a_page_in_that_days_assistant_words_is_refused_as_such_and_the_report_keeps_the_days_order(store):
    said = [line("a1", "2026-12-03", 8, "Cooked curry with too much ginger."),
            line("r1", "2026-12-03", 9, "You should rest and drink warm tea with honey tonight.", "assistant"),
            line("b1", "2026-12-05", 10, "Baked bread with rye flour for the first time.")]
    copied = {"text": "You should rest and drink warm tea with honey tonight.", "cited": ["d1"]}
    noted = {"text": "Baked bread with rye flour for the first time.", "cited": ["d1", "d9"]}
    pages, proposals, progress, _backend = run(store, said, [copied, noted])
    assert [p.day for p in pages] == ["2026-12-05"] and proposals.diary_days == ["2026-12-03", "2026-12-05"]
    assert proposals.errors == ["diary 2026-12-03 (scripted:scripted-1): the page is in the assistant's words, "
                                "not the user's; the next flush asks for that page again."]
    assert proposals.notes == ["the diary of 2026-12-05 cited 1 message id(s) it was not shown; they are left out."]
    assert [p.message for p in progress][1:] == ["no diary page for 2026-12-03", "drafted the diary of 2026-12-05"]
    assert proposals.usage.calls == 2


def test_a_page_is_not_judged_by_what_the_assistant_said_on_another_day(store):
    """Only the day's own replies can make its page "the assistant's words": here the page of 2026-12-05 has the
    very words of a reply of 2026-12-03, and rests on its own day's line."""
    told = {"text": "The day the user first baked bread from rye flour.", "cited": ["d1"]}
    said = [line("r1", "2026-12-03", 9, told["text"], "assistant"),
            line("a1", "2026-12-03", 8, "Walked along the river to the old bridge."),
            line("b1", "2026-12-05", 10, "Baked bread with rye flour for the first time.")]
    pages, proposals, _progress, _backend = run(store, said, [retell, told])
    assert [(p.day, p.text) for p in pages] == [("2026-12-03", "Walked along the river to the old bridge."),
                                                ("2026-12-05", told["text"])]
    assert proposals.errors == []


def test_a_page_is_in_the_language_set_or_else_the_days_own(store):
    said = [line("a1", "2026-12-03", 8, "川沿いを古い橋まで歩いた。"),
            line("b1", "2026-12-05", 10, "Baked bread with rye flour for the first time.")]
    pages, _proposals, _progress, backend = run(store, said, [retell, retell], language="")
    assert [p.language for p in pages] == ["Japanese", "English"]
    assert ["in Japanese" in backend.history[0][1], "in English" in backend.history[1][1]] == [True, True]
    pages, _proposals, _progress, backend = run(store, said, [retell, retell], language="en")
    assert [p.language for p in pages] == ["English", "English"]
    assert "in Japanese" not in backend.history[0][1]


class Remembered(BackgroundStore):
    """The store, with a memory whose evidence is a line of 2026-12-03."""

    def slots_on_day(self, day: str) -> list[str]:
        return {"2026-12-03": ["food/curry", "walks/river"]}.get(day, [])


def test_a_page_carries_the_topics_of_its_own_day(store):
    pages, _proposals, _progress, _backend = run(Remembered(store.store), SAID, [retell, retell])
    assert [(p.day, p.topics) for p in pages] == [("2026-12-03", ["food", "walks"]), ("2026-12-05", [])]


@pytest.mark.parametrize("days", [2, 3])
def test_days_are_asked_side_by_side_as_many_as_the_setting_says_and_come_back_in_their_order(store, days):
    said = [line(f"m{n}", f"2026-12-0{n}", 8, f"Day {n}: walked to the market and bought {n} apples.")
            for n in range(1, days + 1)]
    meeting, in_flight, started, most = threading.Condition(), [0], [0], [0]

    def side_by_side(system, turns, schema):
        with BATON.lent(), meeting:  # the call lends the baton, as a flush's slots do
            in_flight[0] += 1
            started[0] += 1
            most[0] = max(most[0], in_flight[0])
            meeting.notify_all()
            meeting.wait_for(lambda: in_flight[0] >= 2 or started[0] == days, timeout=3)  # a second one comes
            meeting.wait_for(lambda: in_flight[0] > 2, timeout=0.2)  # a third would come now
            in_flight[0] -= 1
        answer = retell(system, turns, schema)
        return {**answer, "cited": answer["cited"] + ["d7"]}  # each day's note says which day

    pages, proposals, progress, _backend = run(store, said, [side_by_side] * days, parallel=2)
    assert most[0] == 2  # two at once (flush.parallel), never three
    assert [p.day for p in pages] == [f"2026-12-0{n}" for n in range(1, days + 1)] == proposals.diary_days
    assert [note.split(" cited")[0] for note in proposals.notes] == [f"the diary of {day}" for day in proposals.diary_days]
    assert [(p.done, p.total) for p in progress] == [(n, days) for n in range(days + 1)]
    assert proposals.usage.calls == days


def test_a_cancel_before_a_day_asks_nothing(store):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(FlushCancelled):
        run(store, SAID, [retell, retell], cancel=cancel)
    with pytest.raises(FlushCancelled):
        run(store, SAID, [retell, retell], cancel=cancel, parallel=2)


def test_no_user_line_asks_for_no_page_and_says_nothing(store):
    pages, proposals, progress, backend = run(store, SAID[1:3], [])
    assert (pages, proposals.diary_days, progress, backend.history) == ([], [], [], [])


# ---- the shape the model is held to -------------------------------------------------------------------------
def test_the_model_is_held_to_a_page_of_its_room_citing_at_most_a_dozen_short_ids():
    """A backend turns the schema into its grammar (llama.cpp) or sends it (Ollama, OpenAI): each bound in it holds."""
    schema = diary_schema(PAGE_MAX)
    jsonschema.Draft202012Validator.check_schema(schema)  # every type a JSON Schema type
    ids = [f"d{n}" for n in range(1, CITED_MAX + 1)]
    for fits in ({"text": "x" * PAGE_MAX, "cited": ids}, {"text": "", "cited": []}, {"text": "x", "cited": ["d1234567"]}):
        jsonschema.validate(fits, schema)
    for refused in ([], "a page", {"text": "x" * (PAGE_MAX + 1), "cited": []}, {"text": 5, "cited": []},
                    {"text": "x", "cited": "d1"}, {"text": "x", "cited": ids + ["d99"]}, {"text": "x", "cited": [5]},
                    {"text": "x", "cited": ["d12345678"]}, {"text": "x"}, {"cited": ["d1"]}, {}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(refused, schema)
    assert diary_schema(120)["properties"]["text"]["maxLength"] == 120


# ---- the page a user opens ------------------------------------------------------------------------------------
PAGE = {"day": "2026-12-05", "text": "  Baked bread with rye flour.\n", "messages": ["m1", "m2"],
        "topics": ["baking", "food"]}


def test_a_page_reads_its_day_its_words_its_topics_and_the_messages_it_cites():
    assert render_markdown(PAGE) == ("# 2026-12-05\n\nBaked bread with rye flour.\n\n"
                                     "_Topics: baking, food. Messages: m1, m2._\n")
    assert render_markdown({**PAGE, "messages": [], "topics": []}).endswith("_Topics: none. Messages: none._\n")


def test_each_page_is_its_days_file_and_an_unchanged_one_is_left_alone(tmp_path):
    folder = tmp_path / "diary"
    write_files([], folder)
    assert not folder.exists()  # no page: no folder
    other = {**PAGE, "day": "2026-12-04", "text": "Read a novel."}
    write_files([PAGE, other], folder)
    assert sorted(p.name for p in folder.iterdir()) == ["2026-12-04.md", "2026-12-05.md"]
    path = folder / "2026-12-05.md"
    assert path.read_text(encoding="utf-8") == render_markdown(PAGE)
    assert path.stat().st_mode & 0o777 == 0o600 and folder.stat().st_mode & 0o777 == 0o700
    inode = path.stat().st_ino
    write_files([PAGE], folder)
    assert path.stat().st_ino == inode  # the same page: not written again
    write_files([{**PAGE, "text": "Baked bread with spelt."}], folder)
    assert path.stat().st_ino != inode and "Baked bread with spelt." in path.read_text(encoding="utf-8")
    assert (folder / "2026-12-04.md").read_text(encoding="utf-8") == render_markdown(other)
