"""Hostile and unlucky imports (issue 25): repeated messages, deep nesting, bad messages under --skip-bad,
a refused card's picture, a log line that reuses an id.

Every file here is written as the hostile export would be, and imported through ``monchat import`` or
``import_file`` for real.
"""

from __future__ import annotations

import base64
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.transfer.importers import import_file
from monchat.core.types import Message, content_message_id
from tests.test_cards import png_with_chunks, text_chunk, v2_card

UTC = timezone.utc
NOW = datetime(2026, 12, 1, tzinfo=UTC)
DEEP = "[" * 100_000 + "]" * 100_000


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def jsonl(records) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records)


def claude_with_repeats() -> list:
    at = "2026-11-21T08:00:01.000000Z"
    return [{"uuid": "conv-1", "name": "Short answers", "chat_messages": [
        {"uuid": "m1", "sender": "human", "text": "ok", "created_at": at},
        {"uuid": "m2", "sender": "human", "text": "ok", "created_at": at},
        {"uuid": "m3", "sender": "assistant", "text": "Fine.", "created_at": at}]}]


def chatgpt_with_repeats(times=(1795341720, 1795341720, 1795341720)) -> list:
    def node(nid, parent, child, role, text, t):
        return nid, {"id": nid, "parent": parent, "children": [child] if child else [], "message": {
            "id": nid, "author": {"role": role}, "create_time": t,
            "content": {"content_type": "text", "parts": [text]}}}
    mapping = dict([node("n1", None, "n2", "user", "yes", times[0]), node("n2", "n1", "n3", "user", "yes", times[1]),
                    node("n3", "n2", None, "assistant", "Understood.", times[2])])
    return [{"id": "c1", "title": "t", "create_time": 1795341700, "mapping": mapping, "current_node": "n3"}]


def sillytavern_with_repeats() -> list:
    meta = {"user_name": "You", "character_name": "Ren", "chat_metadata": {}}
    line = {"name": "You", "is_user": True, "is_system": False, "send_date": "November 22, 2026 10:00am"}
    return [meta, {**line, "mes": "yes"}, {**line, "mes": "yes"},
            {**line, "is_user": False, "name": "Ren", "mes": "Are you sure?"}]


@pytest.fixture
def app(home):
    application = build_app(str(home), tz=UTC)
    yield application
    application.close()


def texts(app) -> list[str]:
    return sorted(m.text for m in app.logbook.read_all().messages)


# ---- point 5: repeated messages are messages ------------------------------------------------------
@pytest.mark.parametrize("name, content, expected", [
    ("conversations.json", json.dumps(claude_with_repeats()), ["Fine.", "ok", "ok"]),
    ("conversations.json", json.dumps(chatgpt_with_repeats()), ["Understood.", "yes", "yes"]),
    ("Ren.jsonl", jsonl(sillytavern_with_repeats()), ["Are you sure?", "yes", "yes"]),
    ("history.jsonl", jsonl([{"ts": "2026-11-29T05:59:59+00:00", "role": "user", "text": "ok"}] * 2), ["ok", "ok"]),
])
def test_a_repeated_message_at_the_same_time_is_imported_and_a_second_import_adds_nothing(app, tmp_path, name,
                                                                                          content, expected):
    source = write(tmp_path / name, content)
    first = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC, now=NOW)
    assert (first.imported, first.already_known) == (len(expected), 0)
    assert texts(app) == expected
    again = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC, now=NOW)
    assert (again.imported, again.already_known) == (0, len(expected))
    app.archive.archive(app.logbook.read_all().messages)  # what a flush does, then removes the files
    app.logbook.remove_flushed(app.logbook.files(), app.archive.ids())
    after_flush = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC, now=NOW)
    assert (after_flush.imported, app.logbook.files()) == (0, [])


def old_import(app, source: Path) -> None:
    """What monchat did before issue 25: ids from (ts, role, text, persona), so a repeat was dropped."""
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        other = build_app(scratch, tz=UTC)
        import_file(source, other.logbook, other.archive, default_persona="hana", tz=UTC, now=NOW)
        read = other.logbook.read_all().messages
        other.close()
    by_content = {}
    for m in read:
        old_id = content_message_id(m.ts, m.role, m.text, m.persona)
        by_content.setdefault(old_id, Message(id=old_id, ts=m.ts, role=m.role, text=m.text, persona=m.persona,
                                              backend="import"))
    app.logbook.import_messages(list(by_content.values()))


@pytest.mark.parametrize("flushed", [False, True])
@pytest.mark.parametrize("name, content, expected", [
    ("conversations.json", json.dumps(claude_with_repeats()), ["Fine.", "ok", "ok"]),
    ("conversations.json", json.dumps(chatgpt_with_repeats()), ["Understood.", "yes", "yes"]),
    ("Ren.jsonl", jsonl(sillytavern_with_repeats()), ["Are you sure?", "yes", "yes"]),
    ("export.jsonl", jsonl([{"id": f"0193{n:016x}", "ts": "2026-11-29T05:59:59.000+00:00", "role": "user",
                             "text": "ok", "persona": "hana"} for n in range(2)]), ["ok", "ok"]),
])
def test_an_export_imported_last_month_and_again_now_gains_only_the_dropped_repeats(app, tmp_path, name, content,
                                                                                  expected, flushed):
    source = write(tmp_path / name, content)
    old_import(app, source)
    assert len(texts(app)) == len(expected) - 1  # the old import lost one repeat
    if flushed:
        app.archive.archive(app.logbook.read_all().messages)
        app.logbook.remove_flushed(app.logbook.files(), app.archive.ids())
    report = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC, now=NOW)
    assert (report.imported, report.already_known) == (1, len(expected) - 1)
    every = sorted([m.text for m in app.archive.all()] + [m.text for m in app.logbook.read_all().messages])
    assert every == expected
    again = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC, now=NOW)
    assert (again.imported, again.already_known) == (0, len(expected))


# ---- point 6: deep nesting is a clear error, exit 2 -----------------------------------------------
def sillytavern_meta() -> str:
    return json.dumps({"user_name": "You", "character_name": "Ren", "chat_metadata": {}})


@pytest.mark.parametrize("name, content, needle", [
    ("conversations.json", DEEP, "nested too deeply"),
    ("conversations.json", '[{"mapping": ' + DEEP + ', "current_node": "a"}]', "nested too deeply"),
    ("conversations.json", '[{"chat_messages": [' + DEEP + ']}]', "nested too deeply"),
    ("conversations.json", "[\n" + DEEP + "\n]", "nested too deeply"),  # pretty-printed: read whole
    ("history.jsonl", '{"ts": "2026-11-29T05:59:59+00:00", "role": "user", "text": "ok"}\n' + DEEP + "\n",
     "line 2: nested too deeply"),
    ("Ren.jsonl", sillytavern_meta() + "\n" + DEEP + "\n", "line 2: nested too deeply"),
    ("Ren.jsonl", '{"user_name": "You", "character_name": "Ren", "x": ' + DEEP + "}\n", "nested too deeply"),
])
def test_deep_nesting_in_any_import_format_is_exit_2_with_a_clear_message(home, tmp_path, capsys, name, content,
                                                                         needle):
    source = write(tmp_path / name, content)
    assert cli.main(["import", str(source)]) == 2
    err = capsys.readouterr().err
    assert needle in err and "internal error" not in err
    assert not list((home / "logs").glob("*.jsonl"))


def test_deep_nesting_in_a_card_json_or_a_png_chara_chunk_is_exit_2(home, tmp_path, capsys):
    card = write(tmp_path / "card.json", '{"spec": "chara_card_v2", "data": ' + DEEP + "}")
    assert cli.main(["personas", "import", str(card)]) == 2
    assert "nested too deeply" in capsys.readouterr().err
    png = tmp_path / "card.png"
    png.write_bytes(png_with_chunks((b"tEXt", b"chara\x00" + base64.b64encode(DEEP.encode()))))
    assert cli.main(["personas", "import", str(png)]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "internal error" not in err
    assert list((home / "personas" / "surface").iterdir()) == []


def test_a_deeply_nested_log_line_is_quarantined_and_the_others_read(app):
    app.logbook.logs_dir.mkdir(parents=True, exist_ok=True)
    good = Message(id="m1", ts="2026-11-29T05:00:00.000+00:00", role="user", text="still here")
    (app.logbook.logs_dir / "2026-11-29_00.jsonl").write_text(good.to_json() + "\n" + DEEP + "\n")
    read = app.logbook.read_all()
    assert [m.text for m in read.messages] == ["still here"]
    assert [b.reason for b in read.bad_lines] == ["nested too deeply to read"]
    assert len(app.logbook.quarantined()) == 1


# ---- point 7: --skip-bad skips bad lines and bad messages ------------------------------------------
def sillytavern_with_bad_lines() -> str:
    line = {"name": "You", "is_user": True, "is_system": False, "send_date": "2026-11-22T10:00:00Z"}
    return jsonl([json.loads(sillytavern_meta()), {**line, "mes": "good one"},
                  "this line is not JSON",  # line 3
                  {**line, "mes": "bad date", "send_date": "someday"},  # line 4
                  '{"name": "You", "is_user": true, "send_date": NaN, "mes": "NaN date"}',  # line 5
                  {**line, "text": "no mes"},  # line 6
                  {**line, "mes": "good two"}])


def chatgpt_with_bad_times() -> str:
    times = ["1795341720", "NaN", "Infinity", "-Infinity", '"2026-11-22"', "true", "1795341780"]
    nodes = []
    for n, t in enumerate(times):
        parent = f'"n{n - 1}"' if n else "null"
        child = f'["n{n + 1}"]' if n < len(times) - 1 else "[]"
        nodes.append(f'"n{n}": {{"id": "n{n}", "parent": {parent}, "children": {child}, "message": {{"author": '
                     f'{{"role": "user"}}, "create_time": {t}, "content": {{"parts": ["message {n}"]}}}}}}')
    return '[{"id": "c", "title": "times", "mapping": {' + ", ".join(nodes) + '}, "current_node": "n6"}]'


def claude_with_bad_times() -> str:
    return ('[{"uuid": "c", "name": "times", "chat_messages": ['
            '{"uuid": "a", "sender": "human", "text": "good", "created_at": "2026-11-21T08:00:01Z"},'
            '{"uuid": "b", "sender": "human", "text": "nan", "created_at": NaN},'
            '{"uuid": "c", "sender": "human", "text": "number", "created_at": 1795341720},'
            '{"uuid": "d", "sender": "human", "text": "words", "created_at": "last tuesday"}]}]')


@pytest.mark.parametrize("name, content, bad, good", [
    ("Ren.jsonl", sillytavern_with_bad_lines(), ["line 3", "line 4", "line 5", "line 6"], ["good one", "good two"]),
    ("conversations.json", chatgpt_with_bad_times(), ["'n1'", "'n2'", "'n3'", "'n4'", "'n5'"],
     ["message 0", "message 6"]),
    ("conversations.json", claude_with_bad_times(), ["message b", "message c", "message d"], ["good"]),
])
def test_skip_bad_imports_the_good_messages_and_names_the_bad_ones(home, tmp_path, capsys, name, content, bad,
                                                                  good):
    source = write(tmp_path / name, content)
    assert cli.main(["import", str(source)]) == 2
    err = capsys.readouterr().err
    assert f"{len(bad)} bad message(s); nothing was imported" in err
    assert all(where in err for where in bad), err
    assert not list((home / "logs").glob("*.jsonl"))
    assert cli.main(["import", "--skip-bad", str(source)]) == 1  # imported, with lines skipped
    out, err = capsys.readouterr()
    assert f"imported {len(good)} of {len(good) + len(bad)} message(s)" in out
    assert all(where in err for where in bad)
    application = build_app(str(home), tz=UTC)
    assert texts(application) == good
    application.close()


def test_a_chatgpt_time_of_true_is_a_bad_time_not_1970(app, tmp_path):
    source = write(tmp_path / "conversations.json", chatgpt_with_bad_times())
    report = import_file(source, app.logbook, app.archive, default_persona="hana", skip_bad=True, tz=UTC, now=NOW)
    assert any("node 'n5': create_time True is not a time" in b for b in report.bad_lines), report.bad_lines
    assert all(m.dt.year == 2026 for m in app.logbook.read_all().messages)


# ---- point 9: a refused card leaves no picture ----------------------------------------------------------
def test_a_png_card_refused_for_its_size_leaves_no_picture_and_retries_add_none(home, tmp_path, capsys):
    png = tmp_path / "big.png"
    png.write_bytes(png_with_chunks(text_chunk("chara", v2_card(name="Big", description="d" * 3_000_000))))
    for _ in range(3):
        assert cli.main(["personas", "import", str(png)]) == 2
        assert "at most 1 MB" in capsys.readouterr().err
    assert list((home / "personas" / "surface").iterdir()) == []
    small = tmp_path / "aoi.png"
    small.write_bytes(png_with_chunks(text_chunk("chara", v2_card())))
    assert cli.main(["personas", "import", str(small)]) == 0
    assert sorted(p.name for p in (home / "personas" / "surface").iterdir()) == ["aoi.png", "aoi.toml"]


# ---- minor: a log line that reuses an id with another text -----------------------------------------------
def test_a_log_line_reusing_an_id_with_another_text_is_quarantined_not_lost(app):
    first = Message(id="m1", ts="2026-11-29T05:00:00.000+00:00", role="user", text="the real words")
    forged = Message(id="m1", ts="2026-11-29T07:00:00.000+00:00", role="user", text="other words")
    app.logbook.append(first)
    app.logbook.append(forged)
    read = app.logbook.read_all()
    assert [m.text for m in read.messages] == ["the real words"]
    assert [b.reason for b in read.bad_lines] == ["reuses the id m1 of an earlier line with a different text"]
    assert b"other words" in app.logbook.quarantined()[0].read_bytes()


def test_a_log_line_reusing_an_archived_id_with_another_text_is_quarantined_by_the_flush(app):
    from monchat.core.flush.orient import orient
    archived = Message(id="m1", ts="2026-11-29T05:00:00.000+00:00", role="user", text="archived words")
    app.archive.archive([archived])
    app.logbook.append(Message(id="m1", ts="2026-11-29T05:00:00.000+00:00", role="user", text="other words"))
    app.logbook.append(Message(id="m2", ts="2026-11-29T05:01:00.000+00:00", role="user", text="new"))
    found = orient(app.logbook, app.archive)
    assert [m.text for m in found.messages] == ["new"]
    assert [b.reason for b in found.bad_lines] == ["reuses the id m1 of an archived message with a different text"]
    assert any(b"other words" in p.read_bytes() for p in app.logbook.quarantined())


# ---- point 8: a huge message is kept whole and sent cut --------------------------------------------------
class CountingBackend:
    """A scripted backend that remembers the longest text it was asked to count (what a turn or flush weighs)."""

    @staticmethod
    def make(reply: str, context: int = 8192):
        from tests.support.scripted import ScriptedBackend

        class Counting(ScriptedBackend):
            longest = 0

            def count_text(self, text: str) -> int:
                Counting.longest = max(Counting.longest, len(text))
                return super().count_text(text)

            def context_length(self) -> int:
                return context
        return Counting(default_reply=reply)


def huge_history(tmp_path: Path, chars: int) -> Path:
    from datetime import timedelta
    when = datetime.now(UTC) - timedelta(hours=1)  # inside the chat window
    words = ("the quick brown fox jumps over the lazy dog " * (chars // 44 + 1))[:chars]
    return write(tmp_path / "huge.jsonl", jsonl([{"ts": when.isoformat(), "role": "user", "text": words},
                                                 {"ts": (when + timedelta(minutes=1)).isoformat(),
                                                  "role": "assistant", "text": "That was long."}]))


def test_a_huge_imported_message_is_kept_whole_and_a_turn_sends_it_cut_with_a_mark(home, tmp_path, capsys):
    from monchat.core.chat.service import TURN_TEXT_CHARS
    source = huge_history(tmp_path, 3_000_000)
    assert cli.main(["import", str(source)]) == 0
    backend = CountingBackend.make("ok", context=1_000_000)  # a large cloud model's: the cut message fits
    assert cli.main(["chat", "-m", "what did I paste?"], pinned_backend=backend) == 0
    sent = [turn.content for turn in backend.history[-1][2]]
    huge = next(text for text in sent if text.startswith("the quick"))
    assert len(huge) < TURN_TEXT_CHARS + 200 and "2,900,000 more characters of this message are not shown" in huge
    assert type(backend).longest < TURN_TEXT_CHARS + 200  # never counted whole
    application = build_app(str(home), tz=UTC)
    kept = [m.text for m in application.logbook.read_all().messages if m.text.startswith("the quick")]
    application.close()
    assert [len(text) for text in kept] == [3_000_000]  # the log keeps every character
    assert cli.main(["flush"], pinned_backend=CountingBackend.make('{"items": []}', context=1_000_000)) == 0
    application = build_app(str(home), tz=UTC)
    assert max(len(m.text) for m in application.archive.all()) == 3_000_000  # and so does the archive
    application.close()


def test_a_flush_weighs_a_huge_message_only_as_far_as_a_request_could_hold_it(home, tmp_path):
    source = huge_history(tmp_path, 3_000_000)
    assert cli.main(["import", str(source)]) == 0
    backend = CountingBackend.make('{"items": []}')
    assert cli.main(["flush"], pinned_backend=backend) == 0
    assert type(backend).longest < backend.json_prompt_limit() * 8 + 2000
