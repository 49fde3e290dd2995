"""The background track's LLM stages against a model that misbehaves (reflect, digest, diary, lint).

The real FlushService talks through the real ``ollama`` client to a loopback Ollama, and through the real
``openai`` client to a loopback OpenAI-compatible server, whose good answers come from the oracle
(``oracle_server.py``); ``server.tamper[kind]`` spoils one kind of call — malformed
JSON, JSON that ignores the schema, over-long text, ids it was not shown, the assistant's words, an
answer cut off at its limit — and ``server.kind_faults[kind]`` makes that kind's calls answer 503.
The scene: ramen and sushi said in June (one flush), tennis in September: the September flush runs all
four stages (reflect on tennis, a digest of the cold food slot, the diary of 09-10, lint of the food pair).
Whatever a stage is told, the flush completes, keeps nothing invented, and says what it refused.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path
from typing import Iterator

import pytest

from monchat.core.backends.ollama import OllamaBackend
from monchat.core.backends.openai_compat import OpenAICompatBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import BackendError
from monchat.core.store.answers import AnswerStore
from tests.fakes.fake_openai import running_fake_openai
from tests.flush.conftest import World
from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule, kind_of

RAMEN = Rule("ラーメン", "ラーメンが好き", "food/likes", "explicit", 0.9)
SUSHI = Rule("寿司", "寿司が好き", "food/likes", "explicit", 0.9)
TENNIS = Rule("テニス", "テニスを始めた", "sport/tennis", "explicit", 0.9)
CAT = Rule("猫", "猫を飼っている", "pet/cat", "explicit", 0.9, persona="lifestyle")  # real, never shown to lint or digest
ASSISTANT = "素晴らしい選択ですね！ラケットはヨネックスのEZONEが初心者に最適で、週三回のレッスンがおすすめです"
BUSY = ("status", 503, "server busy")
STAGES = ("reflect", "digest", "diary", "lint")
MEMORY_TABLES = ("memories", "evidence", "review_queue", "flush_runs", "insights", "diary", "digests",
                 "lint_findings", "memory_events")
IDS = re.compile(r"^- (mem-\S+) \(slot", re.M)


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def first_pair(user_turn: str) -> dict:
    """The lint oracle: the first pair it was shown contradicts."""
    ids = IDS.findall(user_turn)
    return {"contradictions": [{"ids": ids[:2], "reason": "both are the favourite food"}] if len(ids) >= 2 else []}


def schema_of(body: dict) -> dict | None:
    """The schema of a structured request to either server (None: a chat request)."""
    if "format" in body:
        return body["format"]
    response_format = body.get("response_format")
    return (response_format.get("json_schema") or {}).get("schema") or {} if response_format else None


@contextlib.contextmanager
def running_oracle_openai(oracle) -> Iterator:
    """A loopback OpenAI-compatible server answering structured calls from ``oracle``, with the same
    ``tamper`` and ``kind_faults`` knobs as the oracle Ollama."""
    with running_fake_openai() as srv:
        srv.tamper, srv.kind_faults = {}, {}

        def reply(body):
            messages = body.get("messages") or []
            system = "\n".join(m["content"] for m in messages if m["role"] == "system")
            user = "\n".join(m["content"] for m in messages if m["role"] == "user")
            answer = oracle.respond(system, user, schema_of(body))
            tamper = srv.tamper.get(kind_of(schema_of(body)))
            return tamper(answer) if tamper else json.dumps(answer, ensure_ascii=False)

        def fault_for(body):
            if schema_of(body) is None:
                return None
            with srv.lock:
                faults = srv.kind_faults.get(kind_of(schema_of(body))) or []
                return faults.pop(0) if faults else None

        srv.structured_reply, srv.fault_for = reply, fault_for
        yield srv


@pytest.fixture(scope="module", params=["ollama", "openai"])
def shared_server(request):
    """One loopback server per client for the module: the oracle answers by what it is asked, and every test
    counts the requests it made from its own start."""
    oracle = Oracle([RAMEN, SUSHI, TENNIS, CAT])
    oracle.lint = first_pair
    running = running_oracle_ollama if request.param == "ollama" else running_oracle_openai
    with running(oracle) as srv:
        srv.client = request.param
        yield srv


@pytest.fixture
def server(shared_server):
    """The module's server with no spoiled kind and no faults waiting, before and after each test."""
    for knobs in (shared_server.tamper, shared_server.kind_faults):
        knobs.clear()
    yield shared_server
    for knobs in (shared_server.tamper, shared_server.kind_faults):
        knobs.clear()


def september(tmp_path, server, name: str, attempts: int = 3, june: Path | None = None,
              only_june: bool = False) -> tuple[World, Waits]:
    """A home on the loopback server after the June flush, with September's lines logged (not flushed).

    With ``june`` (the ``june`` fixture's home, flushed once for the module) the home starts as a copy of it, as
    after a restart, instead of flushing June again; ``only_june`` stops after the June flush."""
    waits = Waits()
    retry = RetryPolicy(attempts=attempts, base_delay_s=1.0, jitter_s=0.0, sleep=waits)
    if server.client == "ollama":
        backend = OllamaBackend("llama3.2", host=server.url, timeout_s=5.0, retry=retry)
    else:
        backend = OpenAICompatBackend("qwen2.5-7b-instruct", base_url=server.url, context_length=8192, timeout_s=5.0,
                                retry=retry)
    if june is not None:
        shutil.copytree(june, tmp_path / name)
    world = World(tmp_path / name, oracle=backend)
    world.app.settings.flush.parallel = 1
    if june is None:
        world.say("2026-06-01T12:00:00+09:00", "覚えておいて：ラーメンが好き")
        world.say("2026-06-01T12:05:00+09:00", "覚えておいて：寿司も好き")
        world.say("2026-06-01T12:10:00+09:00", "覚えておいて：猫を飼っている")
        world.flush("2026-06-01T22:00:00+09:00")
    if only_june:
        return world, waits
    world.say("2026-09-10T12:00:00+09:00", "テニスを始めた")
    world.say("2026-09-10T12:01:00+09:00", ASSISTANT, role="assistant")
    return world, waits


def sent(server, kind: str) -> list[dict]:
    with server.lock:
        bodies = [r["body"] for r in server.requests if r["path"] in ("/api/chat", "/v1/chat/completions")]
    return [body for body in bodies if schema_of(body) is not None and kind_of(schema_of(body)) == kind]


def outcome(world) -> dict:
    """What the September flush left: memories and every stage's rows (without run-specific stamps)."""
    return {
        "memories": sorted((m.text, m.slot, m.state) for m in world.store.all()),
        "reflect": sorted((r["run_id"], r["kind"], r["text"], r["slots"]) for r in world.rows("insights")),
        "diary": sorted((r["day"], r["text"], r["messages"]) for r in world.rows("diary")),
        "digest": sorted((r["slot"], r["text"], r["covers"]) for r in world.rows("digests")),
        "lint": sorted((r["kind"], r["step"], r["memory_ids"]) for r in world.rows("lint_findings")
                       if r["step"] == "llm"),
    }


def memory_state(world) -> dict:
    db = world.app.store.db
    state = {t: [tuple(r) for r in db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()] for t in MEMORY_TABLES}
    state["logs"] = world.log_files()
    return state


@pytest.fixture(scope="module")
def reference(tmp_path_factory, shared_server):
    """The September flush with every answer good, once per client: what each test's flush is compared with."""
    server = shared_server
    world, waits = september(tmp_path_factory.mktemp("reference"), server, "reference")
    before = {kind: len(sent(server, kind)) for kind in STAGES}
    report = world.flush("2026-09-10T22:00:00+09:00")
    result = outcome(world)
    assert not report.errors and not waits
    assert {kind: len(sent(server, kind)) - before[kind] for kind in STAGES} == dict.fromkeys(STAGES, 1)
    # A server's answer allowance holds a 400-character digest and diary page, as the product says.
    for kind in ("digest", "diary"):
        assert schema_of(sent(server, kind)[-1])["properties"]["text"]["maxLength"] == 400
    # Every stage had something to keep: a test that spoils one can see it is gone.
    assert all(result[kind] for kind in STAGES), result
    assert [d for d, _t, _m in result["diary"]] == ["2026-06-01", "2026-09-10"]
    return result


@pytest.fixture(scope="module")
def june(tmp_path_factory, shared_server) -> Path:
    """A home after the June flush on this module's server, closed: each test's home starts as a copy of it (the
    reference above flushed June itself, so a copy that lost anything would differ from it)."""
    world, _ = september(tmp_path_factory.mktemp("june"), shared_server, "home", only_june=True)
    assert world.log_files() == []  # every June line archived
    world.app.close()
    return world.home


# ---- what a hostile model answers --------------------------------------------------------
def _walk(value, keys: tuple, change):
    """``value`` with every field named in ``keys`` (at any depth) replaced by ``change(it)``."""
    if isinstance(value, dict):
        return {k: change(v) if k in keys else _walk(v, keys, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, keys, change) for v in value]
    return value


def _wrong_types(answer: dict) -> dict:
    """Every list a string, every string a list: JSON that ignores the schema's types."""
    def flip(value):
        if isinstance(value, list):
            return ", ".join(json.dumps(v, ensure_ascii=False) for v in value)
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return {k: flip(v) for k, v in value.items()}
        return value
    return {k: flip(v) for k, v in answer.items()}


def _forged(value):
    if isinstance(value, list) and len(value) == 2 and all(str(v).startswith("mem-") for v in value):
        return ["mem-0badc0de0bad", "mem-feedfacefeed"]  # a lint pair of ids it was never shown
    return ["mem-0badc0de0bad", "d99", "secret/forged"]


HOSTILE = {
    "malformed": lambda a: "Sure! Here is the JSON you asked for: " + json.dumps(a, ensure_ascii=False)[:25],
    "schema_ignoring": lambda a: json.dumps({"answer": "yes", "note": "I could not decide"}),
    "wrong_types": lambda a: json.dumps(_wrong_types(a), ensure_ascii=False),
    "over_long": lambda a: json.dumps(_walk(a, ("text", "reason"), lambda s: (str(s) + "。") * 80),
                                      ensure_ascii=False),
    "forged_ids": lambda a: json.dumps(_walk(a, ("slots", "cited", "covers", "ids"), _forged), ensure_ascii=False),
    "cut_off": lambda a: (json.dumps(a, ensure_ascii=False)[:-6], "length"),
    "assistant_words": lambda a: json.dumps(_walk(a, ("text",), lambda s: ASSISTANT), ensure_ascii=False),
}
# An insight and a lint reason are the model's own words about what it was shown: only a digest and a
# diary page say what the user said, so only they can be "in the assistant's words".


def unshown_real_ids(world):
    """Ids that exist but were not shown to this call: the cat's memory (its own slot family: in no lint
    pair, in no digest) and its message (a diary call cites by its own ``d`` ids only)."""
    cat = world.mem("猫を飼っている")
    ramen = world.mem("ラーメンが好き").id

    def change(value):
        return [ramen, cat.id] if isinstance(value, list) and len(value) == 2 else [cat.id, *cat.evidence]
    return lambda a: json.dumps(_walk(a, ("cited", "covers", "ids"), change), ensure_ascii=False)


# A reflect call is shown every known slot, so it has no real id it was not shown.
CASES = [(kind, hostility) for kind in STAGES for hostility in [*sorted(HOSTILE), "unshown_real_ids"]
         if not (hostility == "assistant_words" and kind in ("reflect", "lint"))
         and not (hostility == "unshown_real_ids" and kind == "reflect")]
REFUSED = ("malformed", "schema_ignoring", "wrong_types", "cut_off", "assistant_words")  # nothing kept of these
FORGED = ("forged_ids", "unshown_real_ids")


def said_something(report, kind: str) -> bool:
    """The report names the stage in an error or a note."""
    return any(kind in str(line) for line in [*report.errors, *report.notes])


@pytest.mark.parametrize("kind,hostility", CASES)
def test_a_hostile_answer_to_one_stage_is_refused_with_a_note_and_the_flush_completes(
        tmp_path, server, reference, june, kind, hostility):
    world, _ = september(tmp_path, server, f"{kind}-{hostility}", june=june)
    server.tamper[kind] = unshown_real_ids(world) if hostility == "unshown_real_ids" else HOSTILE[hostility]
    try:
        report = world.flush("2026-09-10T22:00:00+09:00")
    finally:
        server.tamper.clear()
    result = outcome(world)

    assert report.run_id and world.log_files() == []  # completed: every message archived
    for other in STAGES:  # the other stages kept what they keep from good answers
        if other != kind:
            assert result[other] == reference[other], other
    assert result["memories"] == reference["memories"]
    assert said_something(report, kind), (report.errors, report.notes)
    if hostility == "cut_off":  # said as what it is, not as a JSON error
        assert any(kind in str(e) and "cut the answer off at its length limit" in str(e) for e in report.errors)
    kept = result[kind]
    looped = hostility == "over_long" and kind == "diary"  # its page is one sentence 80 times: a loop, refused
    if looped:
        assert any("over and over" in str(e) for e in report.errors)
    if hostility in REFUSED or hostility in FORGED or looped:  # a page citing none of the ids it was shown rests on nothing
        june = {"diary": lambda row: row[0] != "2026-09-10", "reflect": lambda row: row[0] == 1}.get(kind)
        expected = [row for row in reference[kind] if june and june(row)]
        assert kept == expected  # nothing of this answer (the June flush's page and insight stay as they were)
    else:  # over-long: cut to its length, as the schema said (a digest over 400 is no digest)
        limit = {"reflect": 300, "diary": 400, "lint": None, "digest": None}[kind]
        if kind == "digest":
            assert kept == []
        elif kind == "lint":
            assert [row[2] for row in kept] == [row[2] for row in reference["lint"]]
            [finding] = world.app.flush.lint.findings()
            assert len(finding["detail"]["reason"]) == 200
        else:
            assert len(kept) == len(reference[kind]) and all(len(row[-2]) <= limit for row in kept)


@pytest.mark.parametrize("faults", [[BUSY, BUSY], [("reset",), BUSY]], ids=["503-twice", "reset-then-503"])
@pytest.mark.parametrize("kind", STAGES)
def test_a_stage_answered_503_twice_is_retried_and_the_flush_is_as_if_nothing_happened(
        tmp_path, server, reference, june, kind, faults):
    world, waits = september(tmp_path, server, f"busy-{kind}", june=june)
    before = len(sent(server, kind))
    server.kind_faults[kind] = list(faults)

    report = world.flush("2026-09-10T22:00:00+09:00")

    assert len(sent(server, kind)) - before == 3 and len(waits) == 2
    assert outcome(world) == reference and not report.errors


@pytest.mark.parametrize("kind", STAGES)
def test_a_stage_whose_server_stays_down_stops_the_flush_with_nothing_changed_and_the_rerun_pays_only_for_it(
        tmp_path, server, reference, june, kind):
    world, _ = september(tmp_path, server, f"down-{kind}", attempts=2, june=june)
    state = memory_state(world)
    counts = {k: len(sent(server, k)) for k in (*STAGES, "filter", "judge")}
    server.kind_faults[kind] = [BUSY] * 2

    with pytest.raises(BackendError) as raised:
        world.flush("2026-09-10T22:00:00+09:00")

    assert "server busy" in raised.value.message and raised.value.hint
    assert memory_state(world) == state
    paid = AnswerStore(world.app.store).count()
    assert paid > 0
    first = {k: len(sent(server, k)) - counts[k] for k in counts}
    world.flush()  # the server is well again
    second = {k: len(sent(server, k)) - counts[k] - first[k] for k in counts}
    assert second[kind] == 1  # asked again: it was never answered
    # What was answered before the failure is not paid for again.
    assert all(second[k] == 0 for k in counts if k != kind and first[k]), (first, second)
    assert outcome(world) == reference


def test_a_day_whose_page_was_refused_is_asked_for_again_at_the_next_flush(tmp_path, server, reference, june):
    world, _ = september(tmp_path, server, "owed", june=june)
    server.tamper["diary"] = HOSTILE["cut_off"]
    report = world.flush("2026-09-10T22:00:00+09:00")
    server.tamper.clear()
    assert any("diary 2026-09-10" in e and "asks for that page again" in e for e in report.errors)
    assert [r["day"] for r in world.rows("diary")] == ["2026-06-01"]

    world.say("2026-09-12T12:00:00+09:00", "テニスの練習をした")  # another day; nothing new on 09-10
    before = len(sent(server, "diary"))
    report = world.flush("2026-09-12T22:00:00+09:00")

    assert len(sent(server, "diary")) - before == 2 and not report.errors
    pages = {r["day"]: r for r in world.rows("diary")}
    assert sorted(pages) == ["2026-06-01", "2026-09-10", "2026-09-12"]
    assert (pages["2026-09-10"]["text"], pages["2026-09-10"]["messages"]) == next(
        (text, messages) for day, text, messages in reference["diary"] if day == "2026-09-10")
    assert world.app.store.get_state("diary_owed") is None  # nothing owed any more
    world.say("2026-09-13T12:00:00+09:00", "雨")
    before = len(sent(server, "diary"))
    world.flush("2026-09-13T22:00:00+09:00")
    assert len(sent(server, "diary")) - before == 1  # only the new day: a written page is not asked again
