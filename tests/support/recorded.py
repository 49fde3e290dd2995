"""A real model's answers, recorded once and replayed: the guard tested against what SmolLM2 really says.

``RecordingBackend`` is a real ``Backend`` that hands every structured request to another backend
(the embedded SmolLM2) and keeps the request's key and the raw answer (or the error) it gave;
``ReplayBackend`` answers the same requests from such a recording, without the model. Both size
requests as the embedded model does: the recording keeps the model's own token counts, the replay
answers with them, so a replayed flush sends the very requests that were recorded.

A request is found by its exact key (system, turns, schema). When a prompt changed since the
recording, its key no longer matches: the replay then answers with the recorded answer of the
same *label* (the stage, and the persona and part of a filter call, the day of a diary page, the
call's number otherwise), so the guard still meets the model's real answers; ``misses`` lists
them. A request with neither is our bug or a new stage: re-record (``scripts/record-embedded``).

``run_evening`` flushes one evening (``tests/data/recorded/evening_*.jsonl``) at a fixed clock,
zone, seed and line-id key, in a fresh data folder; ``views`` reads every view a user is shown.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import threading
from datetime import datetime, timezone
from pathlib import Path

from monchat.core.backends.base import Backend, Check, DoctorReport
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import KnownError, MalformedReply
from monchat.core.types import Message, Turn, Usage, content_message_id

RECORDED = Path(__file__).parents[1] / "data" / "recorded"
CLOCK = datetime(2026, 11, 28, 22, 0, tzinfo=timezone.utc)  # the evening's flush, after its last message
SEED = 7  # the random filter persona
LINE_ID_KEY = "0123456789abcdef0123456789abcdef"  # the data folder's secret for line ids, fixed
PERSONA = "hana"
NO_WAIT = RetryPolicy(attempts=4, base_delay_s=0.0, jitter_s=0.0)  # settings' flush.retries, without waiting

# Every view the user is shown as theirs, as ``monchat … --json`` prints it.
VIEWS = {"memory": ["memory", "list", "--all", "--json"], "queue": ["memory", "queue", "--json"],
         "profile": ["profile", "--json"], "graph": ["graph", "--json"], "skills": ["skills", "--json"],
         "insights": ["insights", "--json"], "gaps": ["gaps", "--json"], "diary": ["diary", "--json"]}


def digest(*parts) -> str:
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def request_key(system: str, turns: list[Turn], schema: dict) -> str:
    return digest(system, [[t.role, t.content] for t in turns], schema)


STAGES = {"items": "filter", "verdicts": "judge", "insights": "reflect", "cited": "diary", "covers": "digest",
          "contradictions": "lint"}


def label(turns: list[Turn], schema: dict) -> str:
    """What a request is, in words that survive a change of prompt: ``filter/Project/1``, ``diary/2026-11-28``,
    ``judge`` (numbered by the caller)."""
    keys = set(schema.get("required", ())) | set(schema.get("properties", {}))
    stage = next((name for key, name in STAGES.items() if key in keys), "other")
    user = turns[-1].content if turns else ""
    if stage == "filter":
        persona = re.search(r'The part you play: "([^"]*)"', user)
        part = re.search(r"Chat log (\d+)/", user)
        return f"filter/{persona.group(1) if persona else '-'}/{part.group(1) if part else '-'}"
    if stage == "diary":
        day = re.search(r"Day: (\S+)", user)
        return f"diary/{day.group(1) if day else '-'}"
    return stage


class RecordingBackend(Backend):
    """Every structured request goes to ``inner``; its key, label and raw answer (or error) are kept."""

    PARALLEL_CALLS = 1  # the embedded model runs one call at a time; the calls are kept in order

    def __init__(self, inner: Backend) -> None:
        super().__init__(inner.model, retry=NO_WAIT)
        self.inner = inner
        self.name = inner.name
        self.calls_made: list[dict] = []
        self.counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def _stream(self, system, turns, temperature, reply):
        raise AssertionError("a flush asks for no chat reply")

    def _complete_json(self, system, turns, schema, temperature):
        entry = {"label": label(turns, schema), "key": request_key(system, turns, schema),
                 "user": turns[-1].content if turns else ""}
        try:
            raw = self.inner._complete_json(system, turns, schema, temperature)
        except KnownError as exc:
            entry["error"] = {"message": exc.message, "hint": exc.hint, "transient": bool(getattr(exc, "transient", False))}
            with self._lock:
                self.calls_made.append(entry)
            raise
        finally:
            self.last_usage = self.inner.last_usage
        entry["answer"] = raw
        with self._lock:
            self.calls_made.append(entry)
        return raw

    def count_text(self, text):
        return self._kept(digest("text", text), lambda: self.inner.count_text(text))

    def count_json_request(self, system, turns, schema):
        return self._kept(request_key(system, turns, schema),
                          lambda: self.inner.count_json_request(system, turns, schema))

    def _kept(self, key, count):
        value = count()
        with self._lock:
            self.counts[key] = value
        return value

    def context_length(self):
        return self.inner.context_length()

    def json_answer_reserve(self):
        return self.inner.json_answer_reserve()

    def doctor(self):
        return self.inner.doctor()

    def probe(self):
        return self.inner.probe()

    def close(self):
        self.inner.close()

    def recording(self, evening: str) -> dict:
        """The JSON a fixture holds."""
        return {"evening": evening, "model": self.inner.model, "backend": self.inner.name,
                "context_length": self.context_length(), "answer_reserve": self.json_answer_reserve(),
                "clock": CLOCK.isoformat(), "seed": SEED, "calls": self.calls_made,
                "counts": dict(sorted(self.counts.items()))}


class ReplayBackend(Backend):
    """Answers each structured request with what the recorded model answered to it (see the module)."""

    PARALLEL_CALLS = 1

    def __init__(self, recording: dict) -> None:
        super().__init__(recording["model"], retry=NO_WAIT)
        self.name = "replay"
        self.recording = recording
        self.by_key: dict[str, list[dict]] = {}
        self.by_label: dict[str, list[dict]] = {}
        for call in recording["calls"]:
            self.by_key.setdefault(call["key"], []).append(call)
            self.by_label.setdefault(call["label"], []).append(call)
        self.misses: list[str] = []  # labels answered by label, their prompt changed since the recording
        self.answered: list[dict] = []
        self._lock = threading.Lock()

    @classmethod
    def load(cls, evening: str) -> "ReplayBackend":
        return cls(json.loads((RECORDED / f"{evening}.json").read_text(encoding="utf-8")))

    def _stream(self, system, turns, temperature, reply):
        raise AssertionError("a flush asks for no chat reply")

    def _complete_json(self, system, turns, schema, temperature):
        key, name = request_key(system, turns, schema), label(turns, schema)
        with self._lock:
            call = self._take(self.by_key.get(key))
            if call is None:
                call = self._take(self.by_label.get(name))
                if call is None:
                    raise AssertionError(f"no recorded answer for {name}: re-record (scripts/record-embedded)")
                self.misses.append(name)
            self.answered.append(call)
        self.last_usage = Usage(prompt_tokens=self.count_json_request(system, turns, schema), output_tokens=1)
        if "error" in call:
            error = call["error"]
            raise MalformedReply(error["message"], error["hint"], transient=error["transient"])
        return call["answer"]

    @staticmethod
    def _take(calls: list[dict] | None) -> dict | None:
        """The first not yet given of these recorded calls (a request asked twice gets its two answers)."""
        for call in calls or ():
            if not call.get("_given"):
                call["_given"] = True
                return call
        return None

    def count_text(self, text):
        return self.recording["counts"].get(digest("text", text)) or super().count_text(text)

    def count_json_request(self, system, turns, schema):
        return (self.recording["counts"].get(request_key(system, turns, schema))
                or super().count_json_request(system, turns, schema))

    def context_length(self):
        return self.recording["context_length"]

    def json_answer_reserve(self):
        return self.recording["answer_reserve"]

    def doctor(self):
        return DoctorReport(self.name, self.model, [Check("replay", True, "recorded answers")])

    def probe(self):
        return True


def evening_messages(evening: str) -> list[Message]:
    rows = [json.loads(line) for line in (RECORDED / f"{evening}.jsonl").read_text(encoding="utf-8").splitlines()]
    return [Message(id=content_message_id(r["ts"], r["role"], r["text"], PERSONA), ts=r["ts"], role=r["role"],
                    text=r["text"], persona=PERSONA) for r in rows]


def run_evening(home: Path, evening: str, backend: Backend, count: int | None = None):
    """Write the evening's messages (its first ``count``) to the logs of a fresh data folder and flush them
    through ``backend``.

    Returns the flush report and the messages."""
    from monchat.app import build_app
    from monchat.core.flush.service import LINE_ID_KEY as STATE_KEY

    app = build_app(str(home), pinned_backend=backend, clock=lambda: CLOCK, tz=timezone.utc)
    try:
        app.store.set_state(STATE_KEY, LINE_ID_KEY)
        messages = evening_messages(evening)[:count]
        for message in messages:
            app.logbook.append(message)
        return app.flush.run(seed=SEED), messages
    finally:
        app.store.close()


def proposals(answers: list[str]) -> int:
    """How many items the filter answers ``answers`` (raw JSON) proposed, each counted once."""
    count = 0
    for raw in answers:
        try:
            items = json.loads(raw).get("items")
        except (ValueError, AttributeError):
            continue
        count += len(items) if isinstance(items, list) else 0
    return count


def views(home: Path) -> dict:
    """Every view of ``VIEWS`` as ``monchat`` prints it (JSON), read from ``home``."""
    from monchat.cli import main as cli

    shown = {}
    before = os.environ.get("MONCHAT_HOME")
    os.environ["MONCHAT_HOME"] = str(home)
    try:
        for name, argv in VIEWS.items():
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = cli.main(argv)
            assert code == 0, (name, code)
            shown[name] = json.loads(out.getvalue())
    finally:
        if before is None:
            del os.environ["MONCHAT_HOME"]
        else:
            os.environ["MONCHAT_HOME"] = before
    return shown


# ---- what must never be shown as the user's -------------------------------------------------------------
ROOT = Path(__file__).parents[2]
# Keys of the views' JSON that hold words (texts, slots, topics, names); the rest are ids, times and states.
WORDS_KEYS = {"text", "old_text", "merged_text", "reason", "slot", "slots", "topic", "topics", "label", "name",
              "skill", "old", "new", "title"}
ECHO_WORDS = 4  # this many words in a row from the instructions, never said by the user, are an echo
PLACEHOLDER = re.compile(r"(^|[/_:\s])(id_of|id of)|[a-z]_\d+$|(^|[/_:\s])(role|skill|slot|item|pair)_?id")


def _latin_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def _grams(words: list[str]) -> set[tuple]:
    return {tuple(words[i:i + ECHO_WORDS]) for i in range(len(words) - ECHO_WORDS + 1)}


def instructions() -> tuple[list[str], set[str]]:
    """Every text the model is instructed with (the prompts' literal text, the filter personas' name, talent,
    picks and ignores) and the single words that are the request's own (the schemas' field names, the
    personas' names and ids)."""
    import tomllib
    from monchat.core.background.diary import diary_schema
    from monchat.core.background.lint import LINT_SCHEMA
    from monchat.core.background.digest import digest_schema
    from monchat.core.flush.judge import JUDGE_SCHEMA
    from monchat.core.background.reflect import reflect_schema
    from monchat.core.flush.answer import item_schema

    texts = [re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", "\n", path.read_text(encoding="utf-8"), flags=re.S)
             for path in sorted((ROOT / "prompts").glob("*.j2"))]
    names: set[str] = set()
    for path in sorted((ROOT / "personas" / "filter").glob("*.toml")):
        persona = tomllib.loads(path.read_text(encoding="utf-8"))
        texts += [persona["name"], persona["talent"], *persona["picks"], *persona["ignores"]]
        names |= {persona["id"].casefold(), persona["name"].casefold()}

    def fields(schema) -> set[str]:
        if isinstance(schema, dict):
            found = set(schema.get("properties", {}))
            return found.union(*(fields(v) for v in schema.values()))
        if isinstance(schema, list):
            return set().union(*(fields(v) for v in schema))
        return set()

    for schema in (item_schema(3), JUDGE_SCHEMA, reflect_schema(), diary_schema(), digest_schema(), LINT_SCHEMA):
        names |= fields(schema)
    return texts, names


def _strings(value, key: str = ""):
    """(key, text) for every string under a words key of a view's JSON."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, key)
    elif isinstance(value, str) and key in WORDS_KEYS:
        yield key, value


def traces(shown, said: list[str]) -> list[str]:
    """What of ``shown`` (one view's JSON) is the request's instructions or a placeholder rather than the user's
    words (``said``: every message of the evening): one line per finding, empty when there is none."""
    texts, names = instructions()
    users = set(_latin_words(" ".join(said)))
    user_grams = _grams(_latin_words(" ".join(said)))
    echo = set().union(*(_grams(_latin_words(t)) for t in texts)) - user_grams
    found = []
    for key, text in _strings(shown):
        grams = _grams(_latin_words(text)) & echo
        if grams:
            found.append(f"{key} {text!r} echoes the instructions: {' '.join(sorted(grams)[0])!r}")
        parts = {p for p in re.split(r"[/_:\s\-.,()]+", text.casefold()) if p}
        own = {p for p in parts & names if p not in users}
        if key in ("slot", "slots", "topic", "topics", "label", "name", "skill") and own:
            found.append(f"{key} {text!r} is the request's own word {sorted(own)[0]!r}")
        elif text.strip().casefold() in names and text.strip().casefold() not in users:
            found.append(f"{key} {text!r} is the request's own word")
        if PLACEHOLDER.search(text.casefold()):
            found.append(f"{key} {text!r} is a placeholder")
    return found
