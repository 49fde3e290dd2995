"""Poison log and import lines: whatever a line holds, it is either readable or quarantined, and no
command is blocked by it (chat, flush, export, status), nor does a command end as our bug (exit 70).

A line is "readable" only if everything later code relies on holds: its text is valid Unicode, its
timestamp converts to and from every time zone, its role, status and ids are sane.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.logs.files import LogBook, slot_name
from monchat.core.transfer.importers import import_jsonl, parse_import_line
from monchat.core.types import Message
from tests.support.scripted import ScriptedBackend

UTC = timezone.utc
EXTREME_ZONES = [timezone(timedelta(hours=h, minutes=m)) for h, m in ((-23, -59), (-12, 0), (0, 0), (14, 0),
                                                                      (23, 59))]
NO_ITEMS = '{"items": []}'

GOOD = {"id": "good-1", "ts": "2026-11-29T01:00:00+00:00", "role": "user", "text": "朝はコーヒー"}
POISON = {
    "lone surrogate in text": '{"id":"p1","ts":"2026-11-29T01:01:00+00:00","role":"user","text":"a\\ud800b"}',
    "lone surrogate in persona": '{"id":"p2","ts":"2026-11-29T01:02:00+00:00","role":"user","text":"x",'
                                 '"persona":"\\udc80"}',
    "year 1 east of UTC": '{"id":"p3","ts":"0001-01-01T00:00:00+05:00","role":"user","text":"x"}',
    "year 9999 west of UTC": '{"id":"p4","ts":"9999-12-31T23:59:59-05:00","role":"user","text":"x"}',
    "empty id": '{"id":"","ts":"2026-11-29T01:03:00+00:00","role":"user","text":"x"}',
    "id with a newline": '{"id":"a\\nb","ts":"2026-11-29T01:04:00+00:00","role":"user","text":"x"}',
    "unknown role": '{"id":"p5","ts":"2026-11-29T01:05:00+00:00","role":"system","text":"x"}',
    "persona not text": '{"id":"p6","ts":"2026-11-29T01:06:00+00:00","role":"user","text":"x","persona":7}',
    "usage with a boolean": '{"id":"p7","ts":"2026-11-29T01:07:00+00:00","role":"assistant","text":"x",'
                            '"usage":{"prompt_tokens":true}}',
}


def assert_usable(message: Message) -> None:
    """Everything later code does with a message works."""
    message.text.encode("utf-8")
    message.to_json().encode("utf-8")
    assert Message.from_dict(json.loads(message.to_json())) == message
    for zone in EXTREME_ZONES:
        local = message.dt.astimezone(zone)
        assert local.astimezone(UTC).timestamp() == message.dt.timestamp()
        slot_name(message.dt, zone)


def write_log(home: Path, lines: list[str], name: str = "2026-11-29_00.jsonl") -> Path:
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    path = logs / name
    path.write_bytes(b"".join((line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass"))
                              + b"\n" for line in lines))
    return path


@pytest.mark.parametrize("case", sorted(POISON))
def test_each_poison_line_is_quarantined_and_the_good_line_kept(tmp_path, case):
    logbook = LogBook(tmp_path / "logs", tmp_path / "quarantine", tz=UTC)
    write_log(tmp_path, [json.dumps(GOOD), POISON[case]])
    read = logbook.read_all()
    assert [m.id for m in read.messages] == ["good-1"]
    assert [b.line_no for b in read.bad_lines] == [2]
    assert len(logbook.quarantined()) == 1
    logbook.read_all()
    assert len(logbook.quarantined()) == 1  # once, however often it is read


@pytest.fixture
def poisoned_home(home):
    """A data folder whose one log file holds a good line and every poison line."""
    build_app(str(home)).close()
    write_log(home, [json.dumps(GOOD)] + [POISON[k] for k in sorted(POISON)])
    return home


def run(argv: list[str], capsys, backend: ScriptedBackend | None = None) -> tuple[int, str, str]:
    code = cli.main(argv, pinned_backend=backend or ScriptedBackend(default_reply=NO_ITEMS))
    out, err = capsys.readouterr()
    return code, out, err


def test_status_counts_the_poison_lines_before_any_other_command(poisoned_home, capsys):
    code, out, err = run(["status", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["quarantined_lines"] == len(POISON)


def test_doctor_counts_the_poison_lines_before_any_other_command(poisoned_home, capsys):
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(poisoned_home)
    code, out, err = run(["doctor", "--json"], capsys)
    assert code in (0, 1), err
    checks = {c["name"]: c for s in json.loads(out)["sections"] for c in s["checks"]}
    assert f"{len(POISON)} unreadable line(s)" in checks["log files"]["detail"]


def test_chat_export_and_flush_are_not_blocked_by_poison_lines(poisoned_home, capsys):
    code, out, err = run(["export", "--jsonl"], capsys)
    assert code == 0, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["good-1"]

    code, out, err = run(["chat", "-m", "こんにちは"], capsys, ScriptedBackend(default_reply="やあ"))
    assert code == 0, err
    assert out.strip() == "やあ"

    code, out, err = run(["flush", "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["messages_archived"] == 3 and report["gate"] == "ok"
    assert list((poisoned_home / "logs").glob("*.jsonl")) == []  # the gate can clear
    assert len(list((poisoned_home / "quarantine").glob("*.bad"))) == len(POISON)  # nothing lost


def test_import_reports_poison_lines_as_bad_and_skips_them_on_request(home, tmp_path, capsys):
    source = tmp_path / "history.jsonl"
    lines = ['{"ts":"2026-11-29T01:00:00+00:00","role":"user","text":"fine"}',
             '{"ts":"2026-11-29T01:00:00+00:00","role":"user","text":"a\\ud800b"}',
             '{"ts":"0001-01-01T00:00:00+05:00","role":"user","text":"old"}',
             '{"ts":"9999-12-31T23:59:59-05:00","role":"user","text":"late"}',
             '{"ts":"2026-11-29T01:00:00+00:00","role":"user","text":"x","persona":"\\udc80"}']
    source.write_text("\n".join(lines) + "\n")
    code, out, err = run(["import", str(source)], capsys)
    assert code == 2
    assert all(f"line {n}" in err for n in (2, 3, 4, 5)) and "line 1:" not in err
    code, out, err = run(["import", "--skip-bad", str(source)], capsys)
    assert code == 1 and "imported 1 of 5" in out


def test_import_refuses_far_future_timestamps_and_counts_them(home, tmp_path, capsys):
    source = tmp_path / "history.jsonl"
    soon = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    later = (datetime.now(UTC) + timedelta(days=400)).isoformat()
    source.write_text("".join(json.dumps({"ts": ts, "role": "user", "text": f"at {ts}"}) + "\n"
                              for ts in (soon, later, later.replace("+00:00", "+09:00"))))
    code, out, err = run(["import", "--skip-bad", str(source)], capsys)
    assert "imported 1 of 3" in out
    assert err.count("in the future") == 2


# ---- properties --------------------------------------------------------------------------
ANY_TEXT = st.one_of(st.text(max_size=20),
                     st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3),
                     st.text(st.characters(max_codepoint=0x1F), max_size=3))
ZONES = st.builds(lambda minutes: timezone(timedelta(minutes=minutes)), st.integers(-1439, 1439))
ANY_TS = st.one_of(
    st.builds(lambda dt: dt.isoformat(), st.datetimes(timezones=ZONES)),  # years 1–9999, any offset
    st.builds(lambda dt: dt.isoformat(), st.datetimes()),  # no offset
    ANY_TEXT,
)
ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), ANY_TEXT,
                      st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                               max_size=2))
LOG_RECORD = st.fixed_dictionaries(
    {"id": st.one_of(ANY_TEXT, ANY_VALUE), "ts": st.one_of(ANY_TS, ANY_VALUE),
     "role": st.one_of(st.sampled_from(["user", "assistant", "system"]), ANY_VALUE),
     "text": st.one_of(ANY_TEXT, ANY_VALUE)},
    optional={"persona": ANY_VALUE, "backend": ANY_VALUE, "model": ANY_VALUE, "replaces": ANY_VALUE,
              "status": st.one_of(st.sampled_from(["ok", "partial", "stopped", "lost"]), ANY_VALUE),
              "usage": st.one_of(st.dictionaries(ANY_TEXT, ANY_VALUE, max_size=2), ANY_VALUE)})
LOG_LINE = st.one_of(
    st.builds(lambda r: json.dumps(r).encode("ascii"), LOG_RECORD),  # surrogates escaped, as in the bug
    st.builds(lambda r: json.dumps(r, ensure_ascii=False).encode("utf-8", "surrogatepass"), LOG_RECORD),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LOG_LINE, max_size=8))
def test_every_log_line_is_readable_or_quarantined(tmp_path_factory, lines):
    folder = tmp_path_factory.mktemp("logs")
    logbook = LogBook(folder / "logs", folder / "quarantine", tz=UTC)
    write_log(folder, lines)
    read = logbook.read_all()
    present = [n for n, line in enumerate(lines, start=1) if line.strip()]
    assert len(read.messages) + len(read.bad_lines) == len(present)  # none silently dropped
    for message in read.messages:
        assert_usable(message)
    assert {(b.line_no, b.raw) for b in read.bad_lines} <= {(n, lines[n - 1]) for n in present}
    assert len(logbook.quarantined()) == len({(b.line_no, b.raw) for b in read.bad_lines})


IMPORT_RECORD = st.fixed_dictionaries(
    {"ts": st.one_of(ANY_TS, ANY_VALUE), "role": st.one_of(st.sampled_from(["user", "assistant"]), ANY_VALUE),
     "text": st.one_of(ANY_TEXT, ANY_VALUE)},
    optional={"persona": ANY_VALUE})


@settings(max_examples=300, deadline=None)
@given(record=IMPORT_RECORD)
def test_an_import_line_is_either_refused_or_readable_by_the_log_reader(record):
    line = json.dumps(record)
    try:
        message = parse_import_line(line, "hana", now=datetime(2026, 12, 1, tzinfo=UTC))
    except ValueError:
        return
    assert_usable(message)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LOG_LINE, min_size=1, max_size=5))
def test_no_command_is_blocked_by_any_log_line(home, capsys, lines):
    """chat, export, status and flush exit 0 whatever the log holds."""
    for path in (home / "logs").glob("*.jsonl") if (home / "logs").is_dir() else []:
        path.unlink()
    write_log(home, [json.dumps(GOOD).encode()] + lines)
    for argv in (["status", "--json"], ["export", "--jsonl"], ["chat", "-m", "hi"], ["flush", "--json"]):
        code, out, err = run(argv, capsys, ScriptedBackend(default_reply=NO_ITEMS))
        assert code == 0, (argv, err)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(IMPORT_RECORD, min_size=1, max_size=6))
def test_import_accounts_for_every_line(home, tmp_path_factory, records):
    source = tmp_path_factory.mktemp("import") / "history.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    app = build_app(str(home), tz=UTC)
    try:
        report = import_jsonl(source, app.logbook, app.archive, default_persona="hana", skip_bad=True,
                              now=datetime(2026, 12, 1, tzinfo=UTC))
        assert report.read == len(records)
        assert report.imported + report.already_known + len(report.bad_lines) == report.read
        assert app.logbook.read_all().bad_lines == []  # what import writes, the reader reads
    finally:
        app.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.one_of(IMPORT_RECORD, ANY_VALUE), min_size=1, max_size=5),
       raw_lines=st.lists(st.binary(max_size=30).filter(lambda b: b"\n" not in b), max_size=2))
def test_the_import_command_never_ends_as_our_bug(home, tmp_path_factory, capsys, records, raw_lines):
    """Whatever the file holds: 0 (all imported), 1 (some lines skipped) or 2 (refused), never 70."""
    source = tmp_path_factory.mktemp("import") / "history.jsonl"
    source.write_bytes(b"".join(json.dumps(r).encode("ascii") + b"\n" for r in records) + b"\n".join(raw_lines))
    code, out, err = run(["import", str(source)], capsys)
    assert code in (0, 2), err
    code, out, err = run(["import", "--skip-bad", str(source)], capsys)
    assert code in (0, 1), err
    assert "internal error" not in err
