"""A one-page diary per local day with user messages, written by one LLM call per day.

The page is in the user's language and cites the day's messages by short ids (``d1`` …);
the program keeps only ids it showed, maps them back to message ids, and stores the page
(SQLite, then ``diary/YYYY-MM-DD.md`` after the commit). A later flush that brings new user
messages of a day writes that day's page again from all of its messages; a day whose page a flush
asked for and did not get (a bad answer) is owed, and asked for again at the next flush (its request
says so).

A page must rest on the day's words: one that says nothing ("1.", "。。。"), is in the assistant's words,
cites none of the messages it was shown, or says what the messages it cites do not (a name, a place or a
number they do not hold, or more new words than a page retelling a day needs: "a food blogger who loves
sushi") is refused and the day owed.

A page is asked for beside the filters (``flush/stages.py``): its request holds the day's messages, the
topics of the memories kept before this flush and the profile's movement before it; the page's own topics
are set at the commit, from the memories the flush leaves.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from collections.abc import Sequence
from typing import Callable

from ..backends.base import Backend
from ..errors import MalformedReply
from ..paths import make_private_dir, write_private
from ..prompts import PromptLibrary
from ..types import Message, Turn, taken_back
from ..asking.ask import TokenUsage, ask_json, text_room
from ..asking.baton import BATON
from ..asking.fit import SLACK, pack
from ..asking.records import FlushCancelled, FlushProgress
from ..vocabulary.states import FlushStage
from .reflect import language_of
from ..memory.never import matches_never, never_rules
from ..memory.guard import (KANJI_NUMERALS, NUMBER_WORDS, adds_words, content_words, copies_assistant,
                           is_statement, loops)
from . import profile

# Characters of a page. Also the schema's maxLength: llama.cpp turns it into a grammar nested that deep,
# and SmolLM2's sampling crashed the process (SIGSEGV) at 1200; 400 is what the judge's schema uses.
PAGE_MAX = 400
LINE_MAX = 300  # characters of one message as the diary call reads it
CITED_MAX = 12  # ids a page may cite (bounded: a small model otherwise repeats ids until it is cut off)
# Words a page about one day may use that no message needs to hold (with the day's date): it tells a day.
DAY_WORDS = "day today tonight evening morning night diary page week 一日 今日 今夜 今朝 日記"
# A page retells: a few words of its own are its telling ("spent", "looks forward"), but when more than this
# share of its content words is in none of the messages it cites, it tells what they do not say.
OWN_WORDS_MOST = 0.25
KATAKANA_WORD = re.compile(r"[\u30a1-\u30fa\u30fc]+")


def diary_schema(page_max: int = PAGE_MAX) -> dict:
    return {"type": "object",
            "properties": {"text": {"type": "string", "maxLength": page_max},
                           "cited": {"type": "array", "maxItems": CITED_MAX,
                                     "items": {"type": "string", "maxLength": 8}}},
            "required": ["text", "cited"]}


DIARY_SCHEMA = diary_schema()


@dataclass
class Page:
    day: str
    text: str
    messages: list[str]  # message ids the page cites
    topics: list[str]
    language: str

    def row(self, run_id: int, at: str) -> dict:
        return {"day": self.day, "text": self.text, "messages": self.messages, "topics": self.topics,
                "language": self.language, "run_id": run_id, "written_at": at}


def day_messages(store, day: str, new: list[Message], read: Callable[[str], bool],
                 day_of: Callable) -> list[dict]:
    """The day's user messages: archived ones (of personas read at a flush) and this flush's new ones, but those
    a never-remember rule covers (``memory/never.py``)."""
    edited_away = taken_back(new)  # a flushed message edited since: the user took it back
    rows = {r["id"]: r for r in store.user_messages_on_day(day)
            if read(r["persona"] or "") and r["id"] not in edited_away}
    for m in new:
        if m.role == "user" and day_of(m.dt) == day:
            rows.setdefault(m.id, {"id": m.id, "ts": m.ts, "ts_epoch": m.dt.timestamp(), "text": m.text})
    rules = never_rules(store.store)  # a line a never-remember rule covers is never shown to the diary
    return sorted((r for r in rows.values() if not matches_never(r["text"], "", rules)),
                  key=lambda r: (r["ts_epoch"], r["id"]))


def topics_on_day(store, day: str) -> list[str]:
    """The topics of the memories the views may show whose evidence is a user line of ``day``: before a flush's
    commit, of the memories kept before it; inside it, of the memories it leaves."""
    return sorted({profile.topic_of(s) for s in store.slots_on_day(day)})


def _ask_day(backend: Backend, prompts: PromptLibrary, day: str, messages: list[dict], topics: list[str],
             moving: dict, language: str, proposals, assistant_lines: Sequence[str] = (), again: bool = False) -> Page | None:
    """The page the program keeps from one call (``assistant_lines``: the day's replies, never shown to it;
    a page in their words rather than the user's is refused), or None with an error said.

    ``again``: the day is owed (an earlier page was refused); the request says so, which also keeps it from
    being answered with the refused page kept from that earlier call (``asking/answers.py``)."""
    lines = [{"id": f"d{n}", "when": datetime.fromisoformat(r["ts"]).strftime("%H:%M"),
              "text": r["text"][:LINE_MAX]} for n, r in enumerate(messages, start=1)]
    # A page in the day's script that fits the answer's allowance, with the ids it may cite.
    most = text_room(backend, "".join(line["text"] for line in lines[:CITED_MAX]), PAGE_MAX,
                     backend.count_text(json.dumps([f"d{n}" for n in range(1, CITED_MAX + 1)])))
    schema = diary_schema(most)
    system = prompts.render("diary.md.j2", most=most, language=language)

    def render(group: list[dict]) -> str:
        return prompts.render("diary_day.md.j2", day=day, topics=topics, moving=moving, lines=group, again=again)

    def request_cost(group: list[dict]) -> int:
        return backend.count_json_request(system, [Turn("user", render(group))], schema)

    if request_cost(lines) <= backend.json_prompt_limit() - SLACK:  # the whole day fits (a day usually does):
        groups = [lines]  # one count, not one a line as packing needs
    else:
        frame = backend.count_text(render([]))  # the request without a line, counted once (not once a line)
        groups = pack(lines, request_cost=request_cost,
                      unit_cost=lambda line: backend.count_text(render([line])) - frame,
                      limit=backend.json_prompt_limit(),
                      shorten=lambda line, over: {**line, "text": line["text"][:max(1, len(line["text"]) // 2)]},
                      setting=backend.CONTEXT_SETTING)
    if len(groups) > 1:
        proposals.notes.append(f"the diary of {day} read {len(groups[0])} of {len(lines)} message(s) "
                               "to fit the model's context.")
    shown = {line["id"]: messages[int(line["id"][1:]) - 1]["id"] for line in groups[0]}
    try:
        answer = ask_json(backend, system, render(groups[0]), schema, proposals.usage)
    except MalformedReply as exc:
        proposals.errors.append(f"diary {day} ({backend.describe()}): {exc.message} The next flush asks for "
                                "that page again.")
        return None
    text = answer.get("text") if isinstance(answer, dict) else None
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        proposals.errors.append(f"diary {day} ({backend.describe()}): the model wrote no page; "
                                "the next flush asks for that page again.")
        return None
    if not is_statement(text):
        proposals.errors.append(f"diary {day} ({backend.describe()}): the page says nothing (a number, punctuation "
                                "or one repeated syllable); the next flush asks for that page again.")
        return None
    if loops(text):
        proposals.errors.append(f"diary {day} ({backend.describe()}): the page says one sentence over and over (a "
                                "model's loop); the next flush asks for that page again.")
        return None
    user_text = "\n".join(line["text"] for line in groups[0])
    if copies_assistant(text, [user_text], assistant_lines):
        proposals.errors.append(f"diary {day} ({backend.describe()}): the page is in the assistant's words, "
                                "not the user's; the next flush asks for that page again.")
        return None
    if len(text) > PAGE_MAX:
        proposals.notes.append(f"the diary of {day} was {len(text)} characters long and was cut to {PAGE_MAX}.")
        text = text[:PAGE_MAX]
    cited_raw = answer.get("cited")
    cited = cited_raw if isinstance(cited_raw, list) else []
    named = list(dict.fromkeys(c for c in cited if isinstance(c, str)))
    ids = [shown[c] for c in named if c in shown]
    if not isinstance(answer.get("cited"), list):
        proposals.notes.append(f"the diary of {day} names no list of the messages it cites; it cites none.")
    elif len(ids) < len(named):
        proposals.notes.append(f"the diary of {day} cited {len(named) - len(ids)} message id(s) it was not shown; "
                               "they are left out.")
    if not ids:
        proposals.errors.append(f"diary {day} ({backend.describe()}): the page cites none of the day's messages; "
                                "the next flush asks for that page again.")
        return None
    texts = {r["id"]: r["text"] for r in messages}
    invented = unfounded(text, [texts[i] for i in ids], day)
    if invented:
        proposals.errors.append(f"diary {day} ({backend.describe()}): the page says what the messages it cites "
                                f"do not ({', '.join(invented[:6])}); the next flush asks for that page again.")
        return None
    return Page(day, text, ids, topics, language)


def unfounded(text: str, cited: list[str], day: str) -> list[str]:
    """The content words of a page that the messages it cites do not hold, when they are more than its telling:
    any name or number, or more than ``OWN_WORDS_MOST`` of its content words; else ``[]``."""
    added = adds_words(text, [*cited, day, DAY_WORDS])
    if not added:
        return []
    if any(_name_or_number(word, text) for word in added) or len(added) > OWN_WORDS_MOST * len(content_words(text)):
        return added
    return []


def _name_or_number(word: str, text: str) -> bool:
    """A number ("two", "二", "3"), a katakana word, or a Latin word written capitalised inside a sentence."""
    if word.isdigit() or word in NUMBER_WORDS or word in KANJI_NUMERALS or KATAKANA_WORD.fullmatch(word):
        return True
    for found in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", text, re.IGNORECASE):
        before = text[:found.start()].rstrip()
        if text[found.start()].isupper() and before and before[-1] not in ".!?。！？":
            return True
    return False


@dataclass
class DayCall:
    """What one day's call cost and said (merged into the flush's proposals in the order of the days)."""

    usage: TokenUsage = field(default_factory=TokenUsage)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def write_pages(backend: Backend, prompts: PromptLibrary, store, readable: list[Message], rows: list,
                day_of: Callable, proposals, progress: Callable[[FlushProgress], None],
                cancel: threading.Event, language_setting: str, read: Callable[[str], bool],
                owed: Sequence[str] = (), parallel: int = 1) -> list[Page]:
    """One page per local day with new user messages in this flush, and per ``owed`` day (an earlier flush
    asked for its page and got none) that has user messages (LLM calls; nothing written).

    A page needs only its day's messages, the memories kept before this flush and ``rows`` (the profile as
    it was before it), so it is asked for beside the filters, up to ``parallel`` days at once. Its topics
    are set at the commit (``topics_on_day``), from the memories the flush leaves.
    ``proposals.diary_days`` is set to the days asked for; its usage, errors and notes get each day's, in
    the order of the days."""
    days = sorted({day_of(m.dt) for m in readable if m.role == "user"} | set(owed))
    moving = profile.moving(rows)
    asked: dict[str, DayCall] = {}
    written: list[str] = []
    lock = threading.Lock()

    def one(day: str) -> Page | None:
        if cancel.is_set():
            raise FlushCancelled()
        messages = day_messages(store, day, readable, read, day_of)
        if not messages:  # an owed day whose messages are gone (deleted, or of personas no longer read)
            return None
        asked[day] = call = DayCall()
        language = language_of([r["text"] for r in messages], language_setting)
        replies = [m.text for m in readable if m.role == "assistant" and day_of(m.dt) == day]
        page = _ask_day(backend, prompts, day, messages, topics_on_day(store, day), moving, language, call,
                        replies, again=day in owed)
        with lock:
            written.append(day)
            done = f"drafted the diary of {day}" if page is not None else f"no diary page for {day}"  # kept at the commit
            progress(FlushProgress(FlushStage.DIARY, None, len(written), len(days), done))
        return page

    if days:
        progress(FlushProgress(FlushStage.DIARY, None, 0, len(days), f"writing the diary of {len(days)} day(s)"))
    if parallel > 1 and len(days) > 1:
        with BATON.pool(min(parallel, len(days)), "diary") as pool:
            futures = [pool.submit(one, day) for day in days]
            try:
                pages = BATON.results(futures)  # one of the pool's threads runs meanwhile
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    else:
        pages = [one(day) for day in days]
    proposals.diary_days = [day for day in days if day in asked]
    for day in proposals.diary_days:
        proposals.usage.add(asked[day].usage)
        proposals.errors.extend(asked[day].errors)
        proposals.notes.extend(asked[day].notes)
    return [page for page in pages if page is not None]


def render_markdown(page: dict) -> str:
    cited = ", ".join(page["messages"]) or "none"
    topics = ", ".join(page["topics"]) or "none"
    return f"# {page['day']}\n\n{page['text'].strip()}\n\n_Topics: {topics}. Messages: {cited}._\n"


def write_files(pages: list[dict], folder: Path) -> None:
    """Each page as ``folder/YYYY-MM-DD.md``, whole or not at all; unchanged files are left alone."""
    if not pages:
        return
    make_private_dir(folder)
    for page in pages:
        path = folder / f"{page['day']}.md"
        text = render_markdown(page)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_private(path, text)
