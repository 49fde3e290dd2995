"""Import of JSONL history into 6-hour files, and export of every message once."""

from __future__ import annotations

import json
from datetime import timezone

import pytest

from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.transfer.importers import import_jsonl
from monchat.core.transfer.messages import export_records

UTC = timezone.utc

HISTORY = [
    {"ts": "2026-11-29T05:59:59+00:00", "role": "user", "text": "朝ごはんはまだ"},
    {"ts": "2026-11-29T15:00:00+09:00", "role": "assistant", "text": "何か食べてね", "persona": "ren"},
    {"ts": "2026-11-29T23:59:59.999+00:00", "role": "user", "text": "もう寝る"},
    {"ts": "2026-11-30T09:00:00+09:00", "role": "user", "text": "{{ 7*7 }} おはよう"},
]
EXPECTED_FILES = ["2026-11-29_00.jsonl", "2026-11-29_06.jsonl", "2026-11-29_18.jsonl", "2026-11-30_00.jsonl"]


def write_jsonl(path, records) -> None:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n"
                            for r in records), encoding="utf-8")


@pytest.fixture
def app(home):
    return build_app(str(home), tz=UTC)


def snapshot(app) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in app.logbook.files()}


def test_import_places_lines_into_slot_files_by_timestamp(app, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY)
    report = import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    assert (report.read, report.imported, report.already_known, report.bad_lines) == (4, 4, 0, [])
    assert report.files == EXPECTED_FILES
    assert [p.name for p in app.logbook.files()] == EXPECTED_FILES
    messages = app.logbook.read_all().messages
    assert [(m.role, m.text, m.persona) for m in messages] == [
        (h["role"], h["text"], h.get("persona", "hana")) for h in HISTORY]
    assert messages[1].ts == "2026-11-29T15:00:00.000+09:00"  # the writer's offset is kept


def test_importing_twice_adds_nothing(app, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY + [HISTORY[0]])  # a repeated line: a second message (issue 25: not dropped)
    first = import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    assert first.imported == 5 and first.already_known == 0
    before = snapshot(app)
    again = import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    assert (again.imported, again.already_known) == (0, 5)
    assert snapshot(app) == before


def test_importing_after_a_flush_adds_nothing(app, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY)
    import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    app.archive.archive(app.logbook.read_all().messages)
    # What a flush does once the archive has them:
    assert app.logbook.remove_flushed(app.logbook.files(), app.archive.ids()) == []
    again = import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    assert again.imported == 0 and app.logbook.files() == []


def test_bad_lines_import_nothing_and_are_named(app, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, [HISTORY[0],
                         '{"ts": "2026-11-29T10:00:00+00:00", "role": "user", "text": "cut',  # line 2
                         {"ts": "2026-11-29T10:00:00", "role": "user", "text": "no offset"},  # line 3
                         HISTORY[1],
                         {"ts": "2026-11-29T10:00:00+00:00", "role": "system", "text": "x"},  # line 5
                         {"ts": "2026-11-29T10:00:00+00:00", "role": "user"},  # line 6
                         "[1, 2]"])  # line 7
    with pytest.raises(InputError) as caught:
        import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    message = caught.value.message
    for n in (2, 3, 5, 6, 7):
        assert f"line {n}:" in message
    assert "line 1:" not in message and "line 4:" not in message
    assert "--skip-bad" in caught.value.hint
    assert app.logbook.files() == []

    report = import_jsonl(source, app.logbook, app.archive, default_persona="hana", skip_bad=True)
    assert report.imported == 2 and len(report.bad_lines) == 5
    assert [m.text for m in app.logbook.read_all().messages] == [HISTORY[0]["text"], HISTORY[1]["text"]]


def test_a_file_that_is_not_utf8_names_the_line(app, tmp_path):
    source = tmp_path / "history.jsonl"
    source.write_bytes(json.dumps(HISTORY[0]).encode() + b"\n" + b'{"text": "\xff"}\n')
    with pytest.raises(InputError) as caught:
        import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    assert "line 2: not valid UTF-8" in caught.value.message


def test_a_missing_file_is_a_clear_error(app, tmp_path):
    with pytest.raises(InputError) as caught:
        import_jsonl(tmp_path / "nope.jsonl", app.logbook, app.archive, default_persona="hana")
    assert "nope.jsonl" in caught.value.message


def test_export_lists_every_message_once_archived_or_not(app, tmp_path):
    source = tmp_path / "history.jsonl"
    write_jsonl(source, HISTORY)
    import_jsonl(source, app.logbook, app.archive, default_persona="hana")
    messages = app.logbook.read_all().messages
    app.archive.archive(messages[:2])  # archived and still in the logs
    # The first message is only in the archive now:
    assert app.logbook.remove_flushed([app.logbook.files()[0]], app.archive.ids()) == []
    records = list(export_records(app.logbook, app.archive))
    assert [r["id"] for r in records] == [m.id for m in messages]
    for record, m in zip(records, messages):
        assert {k: record[k] for k in ("id", "ts", "role", "text", "persona")} == {
            "id": m.id, "ts": m.ts, "role": m.role, "text": m.text, "persona": m.persona}
