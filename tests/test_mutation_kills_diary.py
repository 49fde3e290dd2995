"""The diary's rules where the mutmut run of ``core/background/diary.py`` found them unpinned (issue 44).

Which of a day's lines the diary is shown (a persona the flush does not read, a line the user took back, a line a
never-remember rule covers, another day's line and the assistant's stay out); when a capitalised word a page adds
is a name (only inside a sentence: the first word after a full stop is not); and one day's call (a stand-in
backend, no server): what the request shows, the page's room on a small model, a day or a line too long for the
request, each refusal's words and the notes. docs/testing.md lists the survivors these kill and the rest.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from monchat.app import build_app
from monchat.core.asking.ask import MIN_TEXT, text_room
from monchat.core.asking.fit import SLACK, RequestTooLarge
from monchat.core.background.diary import (CITED_MAX, LINE_MAX, PAGE_MAX, DayCall, _ask_day, _name_or_number,
                                           day_messages, unfounded)
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from monchat.core.errors import MalformedReply
from monchat.core.types import Message, Turn
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
DAY = "2026-12-04"


class Archive:
    """The day's archived user lines as the store gives them, over a real store (its never-remember rules)."""

    def __init__(self, store, rows: list[dict]) -> None:
        self.store, self.rows = store, rows

    def user_messages_on_day(self, day: str) -> list[dict]:
        return [dict(r) for r in self.rows]


def row(id_: str, hour: int, text: str, persona: str = "") -> dict:
    ts = f"{DAY}T{hour:02}:00:00+00:00"
    return {"id": id_, "ts": ts, "ts_epoch": datetime.fromisoformat(ts).timestamp(), "persona": persona, "text": text}


@pytest.fixture
def app(home):
    app = build_app(str(home), tz=UTC)
    yield app
    app.close()


def shown(app, rows, new=(), read=lambda persona: persona != "roleplay"):
    return [r["id"] for r in day_messages(Archive(app.store, rows), DAY, list(new), read,
                                          lambda dt: dt.date().isoformat())]


def test_the_diary_is_shown_only_the_lines_of_personas_the_flush_reads(app):
    rows = [row("a1", 8, "Walked to the river"), row("a2", 9, "I am a pirate captain", "roleplay"),
            row("a3", 10, "Cooked curry", "aiko")]
    assert shown(app, rows) == ["a1", "a3"]
    assert shown(app, rows, read=lambda persona: persona == "aiko") == ["a3"]
    rows.append(row("a4", 11, "Slept early", None))  # an archived line of no persona: the default one's ("")
    assert shown(app, rows, read=lambda persona: persona in ("", "aiko")) == ["a1", "a3", "a4"]


def test_a_line_the_user_took_back_in_this_flush_is_not_shown(app):
    rows = [row("a1", 8, "Walked to the river"), row("a2", 9, "Broke up with Ken")]
    edit = Message(id="n1", ts=f"{DAY}T11:00:00+00:00", role="user", text="Had a quiet evening", replaces="a2")
    assert shown(app, rows, [edit]) == ["a1", "n1"]


def test_new_lines_of_the_day_join_in_time_order_but_the_assistants_and_other_days(app):
    rows = [row("a1", 12, "Walked to the river")]
    new = [Message(id="n1", ts=f"{DAY}T07:00:00+00:00", role="user", text="Woke early"),
           Message(id="n2", ts=f"{DAY}T07:01:00+00:00", role="assistant", text="Good morning!"),
           Message(id="n3", ts="2026-12-05T07:00:00+00:00", role="user", text="Next day")]
    assert shown(app, rows, new) == ["n1", "a1"]


def test_a_line_a_never_remember_rule_covers_is_never_shown(app):
    app.never.add("salary")
    rows = [row("a1", 8, "Walked to the river"), row("a2", 9, "My salary went up")]
    assert shown(app, rows) == ["a1"]
    app.never.add("xxxx")  # a rule no line's words hold hides none of them (a line has no slot to match)
    assert shown(app, rows) == ["a1"]


def test_a_capitalised_word_starting_a_sentence_is_not_a_name():
    text = "Went home early. Cooked rice and miso soup."
    assert not _name_or_number("cooked", text)
    assert _name_or_number("miso", "Went home early and had Miso soup.")
    # a page whose one own word opens a sentence is a telling, not an invention
    assert unfounded(text, ["went home early", "rice and miso soup"], DAY) == []


def test_a_name_after_a_word_ending_in_a_capital_x_is_a_name():
    assert _name_or_number("hiroshi", "A talk at TEDX Hiroshi gave.")


# ---- one day's call: what the model is shown and how long a page it may write ----------------------------------
PROMPTS = PromptLibrary(resource_dir("prompts"))
MOVING = {"rising": [], "cooling": [], "week": []}
EVENING = [{"id": "msg-a", "ts": "2026-12-04T21:05:00+09:00", "text": "Cooked curry with too much ginger."},
           {"id": "msg-b", "ts": "2026-12-04T22:40:00+09:00", "text": "来週は金沢に行く。" + "雨" * 400}]


class SmallModel(ScriptedBackend):
    """A model with a 1,024-token context, as SmolLM2 is run: half of it kept for the answer."""

    def context_length(self) -> int:
        return 1024


def ask(backend, messages, again=False):
    backend.enqueue({"text": "Cooked curry with too much ginger.", "cited": ["d1"]})
    call = DayCall()
    owed = {"again": True} if again else {}  # by default a day is not owed
    page = _ask_day(backend, PROMPTS, DAY, messages, ["food"], MOVING, "English", call, (), **owed)
    _kind, system, turns, schema = backend.history[-1]
    return page, call, system, turns[0].content, schema


def test_the_model_is_shown_each_line_by_its_short_id_its_local_time_and_at_most_line_max_characters():
    page, call, _system, user, _schema = ask(ScriptedBackend(), EVENING)
    shown = [json.loads(raw) for raw in user.splitlines() if raw.startswith("{")]
    assert shown == [{"id": "d1", "when": "21:05", "text": EVENING[0]["text"]},
                     {"id": "d2", "when": "22:40", "text": EVENING[1]["text"][:LINE_MAX]}]
    assert page is not None and page.messages == ["msg-a"] and not call.errors and not call.notes


def test_only_a_day_owed_is_asked_for_again_with_why():
    again = "A page written for this day before was not kept"
    assert again not in ask(ScriptedBackend(), EVENING)[3]
    assert again in ask(ScriptedBackend(), EVENING, again=True)[3]


def test_a_small_model_is_asked_for_a_page_its_answer_allowance_holds():
    backend = SmallModel()
    ids = backend.count_text(json.dumps([f"d{n}" for n in range(1, CITED_MAX + 1)]))  # the most a page cites
    most = text_room(backend, "".join(m["text"][:LINE_MAX] for m in EVENING), PAGE_MAX, ids)
    assert MIN_TEXT < most < PAGE_MAX  # the allowance, not the page's own bound, sets it here
    _page, _call, system, _user, schema = ask(backend, EVENING)
    assert schema["properties"]["text"]["maxLength"] == most
    assert f"at most {most} characters) in English" in system


def day_of_lines(count: int) -> list[dict]:
    return [{"id": f"msg-{n}", "ts": f"2026-12-04T{8 + n // 6:02}:{(n % 6) * 10:02}:00+09:00",
             "text": f"Line {n}: walked along the river and talked about the trip to Kanazawa next week."}
            for n in range(count)]


def test_a_day_too_long_for_the_request_is_read_from_its_start_as_far_as_fits_and_says_so():
    backend = SmallModel()
    _page, call, system, user, schema = ask(backend, day_of_lines(8))
    shown = [json.loads(raw)["id"] for raw in user.splitlines() if raw.startswith("{")]
    assert shown == ["d1", "d2", "d3", "d4", "d5"]  # two requests' worth: the first is sent
    assert call.notes == [f"the diary of {DAY} read 5 of 8 message(s) to fit the model's context."]
    assert backend.count_json_request(system, [Turn("user", user)], schema) <= backend.json_prompt_limit()


def test_a_line_too_long_for_the_request_is_cut_by_halves_to_what_fits():
    backend = SmallModel()
    line = {"id": "msg-x", "ts": "2026-12-04T21:00:00+09:00", "text": "雨" * 300}
    _page, _call, system, user, schema = ask(backend, [line])
    [shown] = [json.loads(raw) for raw in user.splitlines() if raw.startswith("{")]
    assert shown["text"] == "雨" * 75  # 300, 150 are over; a quarter fits
    assert backend.count_json_request(system, [Turn("user", user)], schema) <= backend.json_prompt_limit()


def test_an_answer_not_in_the_shape_asked_for_is_an_error_and_the_day_owed():
    backend = ScriptedBackend().enqueue(MalformedReply("The model's answer is not JSON.", "Try again."))
    call = DayCall()
    assert _ask_day(backend, PROMPTS, DAY, EVENING, [], MOVING, "English", call) is None
    assert call.errors == [f"diary {DAY} (scripted:scripted-1): The model's answer is not JSON. The next flush asks "
                           "for that page again."]


AGAIN = "the next flush asks for that page again."
WHO = f"diary {DAY} (scripted:scripted-1)"
LONG_DAY = ("Morning rain over the harbour, coffee at the corner bakery, then a long train ride north past rice fields "
            "and small stations; lunch was cold soba near the castle, the afternoon went to the museum of lacquer, "
            "where an old craftsman explained gold leaf, brushes and patience; later a walk by the river, a bookshop "
            "selling maps, a phone call with my brother about his new flat, and dinner alone with grilled fish, "
            "pickles and miso soup before the last bus home through quiet streets under lanterns.")


def answered(answer, messages=EVENING, assistant_lines=()):
    backend = ScriptedBackend().enqueue(answer)
    call = DayCall()
    page = _ask_day(backend, PROMPTS, DAY, messages, ["food"], MOVING, "English", call, assistant_lines)
    return page, call


@pytest.mark.parametrize("answer, assistant, error", [
    ({"text": "  ", "cited": ["d1"]}, (), f"{WHO}: the model wrote no page; {AGAIN}"),
    ({"cited": ["d1"]}, (), f"{WHO}: the model wrote no page; {AGAIN}"),
    ({"text": "1.", "cited": ["d1"]}, (),
     f"{WHO}: the page says nothing (a number, punctuation or one repeated syllable); {AGAIN}"),
    ({"text": "Cooked curry. " + "Ate it all. " * 12, "cited": ["d1"]}, (),
     f"{WHO}: the page says one sentence over and over (a model's loop); {AGAIN}"),
    ({"text": "You should rest and drink warm tea with honey tonight.", "cited": ["d1"]},
     ("You should rest and drink warm tea with honey tonight.",),
     f"{WHO}: the page is in the assistant's words, not the user's; {AGAIN}"),
    ({"text": "Cooked curry with too much ginger.", "cited": ["d9"]}, (),
     f"{WHO}: the page cites none of the day's messages; {AGAIN}"),
    ({"text": "Cooked curry with Hiroshi, Aiko, Ken, Mari, Yuki, Taro and Jiro.", "cited": ["d1"]}, (),
     f"{WHO}: the page says what the messages it cites do not (hiroshi, aiko, ken, mari, yuki, taro); {AGAIN}"),
])
def test_each_refused_page_says_why_and_that_the_day_is_asked_for_again(answer, assistant, error):
    page, call = answered(answer, assistant_lines=assistant)
    assert page is None and call.errors == [error]


def test_a_page_keeps_the_days_topics_and_language():
    page, _call = answered({"text": "Cooked curry with too much ginger.", "cited": ["d1"]})
    assert page is not None and (page.topics, page.language, page.messages) == (["food"], "English", ["msg-a"])


def test_a_page_over_its_bound_is_cut_to_it_with_a_note_and_one_at_it_is_not():
    day = [{"id": "msg-l", "ts": "2026-12-04T22:00:00+09:00", "text": LONG_DAY}]
    assert len(LONG_DAY) > PAGE_MAX
    page, call = answered({"text": LONG_DAY, "cited": ["d1"]}, day)
    assert page is not None and page.text == LONG_DAY[:PAGE_MAX]
    assert call.notes == [f"the diary of {DAY} was {len(LONG_DAY)} characters long and was cut to {PAGE_MAX}."]
    page, call = answered({"text": LONG_DAY[:PAGE_MAX], "cited": ["d1"]}, day)
    assert page is not None and page.text == LONG_DAY[:PAGE_MAX] and call.notes == []


def test_ids_the_page_was_not_shown_are_left_out_with_a_note():
    page, call = answered({"text": "Cooked curry with too much ginger.", "cited": ["d1", "d7", "m3"]})
    assert page is not None and page.messages == ["msg-a"]
    assert call.notes == [f"the diary of {DAY} cited 2 message id(s) it was not shown; they are left out."]


def test_cited_ids_not_in_a_list_cite_nothing():
    page, call = answered({"text": "Cooked curry with too much ginger.", "cited": {"d1": "yes"}})
    assert page is None and call.errors == [f"{WHO}: the page cites none of the day's messages; {AGAIN}"]
    assert call.notes == [f"the diary of {DAY} names no list of the messages it cites; it cites none."]


class TinyModel(SmallModel):
    """A model whose context the diary's instructions alone fill, with a setting that gives it more."""

    CONTEXT_SETTING = "ollama.num_ctx"

    def context_length(self) -> int:
        return 300


def test_a_context_the_instructions_alone_fill_names_the_setting_that_gives_more():
    with pytest.raises(RequestTooLarge) as refused:
        ask(TinyModel(), EVENING)
    assert refused.value.hint.startswith("Raise ollama.num_ctx in settings")


# ---- the whole day's request at the edge of the model's context ------------------------------------------------
class Counted(ScriptedBackend):
    """A model that keeps what it was asked to count; ``extra`` tokens added to each count place a day's
    request exactly where a test wants it."""

    def __init__(self, extra: int = 0) -> None:
        super().__init__()
        self.extra, self.counted, self.costs = extra, [], []

    def count_json_request(self, system, turns, schema):
        self.counted.append((system, [(t.role, t.content) for t in turns], schema))
        self.costs.append(super().count_json_request(system, turns, schema) + self.extra)
        return self.costs[-1]


def test_the_request_counted_is_the_request_sent():
    backend = Counted()
    _page, call, system, user, schema = ask(backend, EVENING)
    assert backend.counted[0] == (system, [("user", user)], schema) and call.notes == []


def test_a_whole_day_is_sent_in_one_request_up_to_its_limit_less_the_slack_and_packed_past_it():
    natural = Counted()
    ask(natural, day_of_lines(3))
    edge = natural.json_prompt_limit() - SLACK - natural.costs[0]  # the whole day's request exactly at the edge
    _page, call, _system, user, _schema = ask(Counted(edge), day_of_lines(3))
    assert [json.loads(raw)["id"] for raw in user.splitlines() if raw.startswith("{")] == ["d1", "d2", "d3"]
    assert call.notes == []
    _page, call, _system, user, _schema = ask(Counted(edge + 1), day_of_lines(3))
    assert [json.loads(raw)["id"] for raw in user.splitlines() if raw.startswith("{")] == ["d1", "d2"]
    assert call.notes == [f"the diary of {DAY} read 2 of 3 message(s) to fit the model's context."]


def test_a_page_in_the_users_own_words_the_assistant_echoed_is_kept():
    """The user's lines are compared as lines: a word at one's end or the next one's start is still theirs."""
    day = [{"id": f"msg-{n}", "ts": f"2026-12-04T2{n}:00:00+09:00", "text": text}
           for n, text in enumerate(["Cooked curry", "Ginger again", "Kanazawa rain"])]
    told = "Cooked curry, ginger again, Kanazawa rain."
    page, call = answered({"text": told, "cited": ["d1", "d2", "d3"]}, day,
                          assistant_lines=("Cooked curry, ginger again, Kanazawa rain: what a cozy evening.",))
    assert page is not None and page.text == told and call.errors == []


# ---- what a page cites (a hand-written probe after the mutmut run) ------------------------------------------------
def test_a_page_citing_a_message_twice_lists_it_once():
    page, call = answered({"text": "Cooked curry with too much ginger.", "cited": ["d1", "d1", "d2", "d1"]})
    assert page is not None and page.messages == ["msg-a", "msg-b"] and call.notes == []


def test_a_page_of_a_day_read_in_part_cannot_cite_a_line_it_was_not_sent():
    """The lines left out to fit the context are not the page's ground, whatever ids the model names."""
    backend = SmallModel().enqueue({"text": "Line 0: walked along the river and talked about the trip to Kanazawa "
                                            "next week.", "cited": ["d1", "d7"]})
    call = DayCall()
    page = _ask_day(backend, PROMPTS, DAY, day_of_lines(8), [], MOVING, "English", call)
    assert page is not None and page.messages == ["msg-0"]
    assert call.notes[-1] == f"the diary of {DAY} cited 1 message id(s) it was not shown; they are left out."
