"""Import from other assistants: ChatGPT and Claude exports, SillyTavern chats, monchat JSONL — by content."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.transfer.import_detect import detect
from monchat.core.transfer.import_parse import sillytavern_time
from monchat.core.transfer.importers import import_file

UTC = timezone.utc
T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC).timestamp()


def chatgpt_export() -> list:
    """Two conversations as ChatGPT's conversations.json holds them: a mapping tree, a regenerated branch."""
    def node(nid, parent, children, role=None, text=None, t=None, **extra):
        message = None
        if role is not None:
            message = {"id": nid, "author": {"role": role, "name": None, "metadata": {}}, "create_time": t,
                       "content": {"content_type": "text", "parts": [text]}, "status": "finished_successfully",
                       "metadata": extra.pop("metadata", {}), "recipient": "all"}
        return nid, {"id": nid, "message": message, "parent": parent, "children": children}

    first = dict([
        node("root", None, ["sys"]),
        node("sys", "root", ["u1"], "system", "", T0, metadata={"is_visually_hidden_from_conversation": True}),
        node("u1", "sys", ["a1-old", "a1"], "user", "札幌に引っ越したよ", T0 + 60),
        node("a1-old", "u1", [], "assistant", "（採用されなかった返事）", T0 + 70),
        node("a1", "u1", ["t1"], "assistant", "引っ越しおめでとう！", T0 + 80),
        node("t1", "a1", ["u2"], "tool", "search results", T0 + 85),
        node("u2", "t1", ["a2"], "user", "雪がすごい", T0 + 3600),
        node("a2", "u2", [], "assistant", "", T0 + 3601),  # an empty reply
    ])
    second = dict([
        node("r", None, ["x"]),
        node("x", "r", [], "user", "Second chat, in English", T0 + 86400),
    ])
    return [{"title": "引っ越し", "create_time": T0, "mapping": first, "current_node": "a2", "id": "c1"},
            {"title": "Other", "create_time": T0 + 86400, "mapping": second, "current_node": "x", "id": "c2"}]


def claude_export() -> list:
    return [{
        "uuid": "conv-1", "name": "Cooking", "created_at": "2026-11-21T08:00:00.000000Z",
        "chat_messages": [
            {"uuid": "m1", "sender": "human", "text": "I want to learn to bake bread",
             "created_at": "2026-11-21T08:00:01.000000Z", "content": [
                 {"type": "text", "text": "I want to learn to bake bread"}]},
            {"uuid": "m2", "sender": "assistant", "text": "",
             "created_at": "2026-11-21T08:00:09.500000+00:00", "content": [
                 {"type": "text", "text": "Start with a simple loaf."},
                 {"type": "tool_use", "name": "search", "input": {}}]},
            {"uuid": "m3", "sender": "human", "text": "", "content": [], "created_at": "2026-11-21T08:01:00Z"},
        ]}]


def sillytavern_chat() -> list:
    return [
        {"user_name": "You", "character_name": "Ren", "create_date": "2026-11-22@10h00m00s",
         "chat_metadata": {"note_prompt": ""}},
        {"name": "Ren", "is_user": False, "is_system": False, "send_date": "November 22, 2026 10:00am",
         "mes": "Hello, traveller.", "extra": {}},
        {"name": "You", "is_user": True, "is_system": False, "send_date": "2026-11-22T10:01:30.000Z",
         "mes": "I'm looking for the old library.", "extra": {}, "swipes": []},
        {"name": "System", "is_user": False, "is_system": True, "send_date": 1795341720000, "mes": "[note]"},
        {"name": "Ren", "is_user": False, "is_system": False, "send_date": "2026-11-22 @10h 02m 30s 100ms",
         "mes": "It burned down.", "extra": {}},
    ]


def write(path, data, jsonl: bool = False):
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data) if jsonl else json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def app(home):
    application = build_app(str(home), tz=UTC)
    yield application
    application.close()


def logged(app) -> list[tuple[str, str, str]]:
    return [(m.ts, m.role, m.text) for m in app.logbook.read_all().messages]


def test_chatgpt_export_follows_the_shown_branch_with_roles_and_times(app, tmp_path):
    source = write(tmp_path / "conversations.json", chatgpt_export())
    assert detect(source.read_bytes()) == "chatgpt"
    report = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC)
    assert logged(app) == [
        ("2026-11-20T09:01:00.000+00:00", "user", "札幌に引っ越したよ"),
        ("2026-11-20T09:01:20.000+00:00", "assistant", "引っ越しおめでとう！"),
        ("2026-11-20T10:00:00.000+00:00", "user", "雪がすごい"),
        ("2026-11-21T09:00:00.000+00:00", "user", "Second chat, in English"),
    ]
    assert (report.format, report.imported, report.read) == ("chatgpt", 4, 4)
    assert report.skipped == {"system": 1, "tool": 1, "empty": 3}  # two root nodes and the empty reply
    assert {m.persona for m in app.logbook.read_all().messages} == {"chatgpt"}  # not your persona's words
    again = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC)
    assert (again.imported, again.already_known) == (0, 4)


def test_claude_export_keeps_roles_times_and_text_blocks(app, tmp_path):
    source = write(tmp_path / "conversations.json", claude_export())
    report = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC)
    assert logged(app) == [("2026-11-21T08:00:01.000+00:00", "user", "I want to learn to bake bread"),
                           ("2026-11-21T08:00:09.500+00:00", "assistant", "Start with a simple loaf.")]
    assert (report.format, report.imported, report.skipped) == ("claude", 2, {"empty": 1})
    assert {m.persona for m in app.logbook.read_all().messages} == {"claude"}


def test_sillytavern_chat_with_every_date_style(app, tmp_path):
    source = write(tmp_path / "Ren - 2026-11-22.jsonl", sillytavern_chat(), jsonl=True)
    assert detect(source.read_bytes()) == "sillytavern"
    report = import_file(source, app.logbook, app.archive, default_persona="ren", tz=UTC)
    assert logged(app) == [("2026-11-22T10:00:00.000+00:00", "assistant", "Hello, traveller."),
                           ("2026-11-22T10:01:30.000+00:00", "user", "I'm looking for the old library."),
                           ("2026-11-22T10:02:30.100+00:00", "assistant", "It burned down.")]
    assert report.skipped == {"system": 1}
    assert {m.persona for m in app.logbook.read_all().messages} == {"ren"}  # no persona is named Ren
    other = tmp_path / "h2"
    card_app = build_app(str(other), tz=UTC)
    import_file(source, card_app.logbook, card_app.archive, default_persona="hana", tz=UTC,
                persona_names={"Ren": "ren-card"})  # the card persona of that character: its switches apply
    assert {m.persona for m in card_app.logbook.read_all().messages} == {"ren-card"}
    card_app.close()
    assert sillytavern_time(1795341720000).year == 2026 and sillytavern_time(1795341720).year == 2026


def test_cli_import_reports_the_format_skips_and_the_gate(home, tmp_path, capsys):
    source = write(tmp_path / "conversations.json", chatgpt_export())
    assert cli.main(["import", "--persona", "hana", str(source)]) == 0
    out = capsys.readouterr().out
    assert "ChatGPT: imported 4 of 4 message(s)" in out
    assert "skipped 3 empty, 1 system, 1 tool message(s)" in out
    assert "2 unflushed log file(s); gate: ok" in out


def test_an_import_that_closes_the_gate_says_to_flush(home, tmp_path, capsys):
    conversations = [{"title": f"c{n}", "mapping": {"u": {"id": "u", "parent": None, "children": [], "message": {
        "author": {"role": "user"}, "create_time": T0 + n * 6 * 3600,
        "content": {"content_type": "text", "parts": [f"slot {n}"]}}}}, "current_node": "u"} for n in range(40)]
    source = write(tmp_path / "conversations.json", conversations)
    assert cli.main(["import", str(source)]) == 0
    out = capsys.readouterr().out
    assert "40 unflushed log file(s); gate: stop" in out and "monchat flush" in out


@pytest.mark.parametrize("content, why", [
    ("[{\"mapping\": {\"a\": {\"parent\": \"b\"}, \"b\": {\"parent\": \"a\"}}, \"current_node\": \"a\"}]", "loop"),
    ("[{\"mapping\": {}, \"current_node\": \"gone\"}]", "missing 'gone'"),
    ("[{\"mapping\": []}]", "mapping is not a JSON object"),
    ("[{\"chat_messages\": 5}]", "not a list"),
    ("[{\"chat_messages\": [{\"sender\": \"human\", \"text\": \"hi\"}]}]", "no created_at"),
    ("[{\"chat_messages\": [{\"sender\": \"human\", \"text\": \"hi\", \"created_at\": \"yesterday\"}]}]",
     "Invalid isoformat"),
    ('{"user_name": "a", "character_name": "b"}\n{"mes": "x", "is_user": true, "send_date": "someday"}\n',
     "not a time SillyTavern writes"),
    ('{"user_name": "a", "character_name": "b"}\n{"mes": "x", "is_user": true\n', "not valid JSON"),
    ("[1, 2, 3]", "does not recognise"),
    ("[]", "no conversations"),
    ("\x00\xff garbage", "does not recognise"),
])
def test_malformed_exports_are_a_clear_error_with_exit_2(home, tmp_path, capsys, content, why):
    source = tmp_path / "conversations.json"
    source.write_bytes(content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content)
    assert cli.main(["import", str(source)]) == 2
    err = capsys.readouterr().err
    assert why in err and "crash" not in err
    assert not list((home / "logs").glob("*.jsonl"))


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.sampled_from(["mapping", "current_node", "parent", "message",
                                                              "author", "role", "content", "parts",
                                                              "create_time", "chat_messages", "sender",
                                                              "created_at", "text", "children"]),
                                             inner, max_size=5),
                           max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=json_values)
def test_any_json_shaped_like_an_export_imports_or_is_an_input_error(tmp_path, data):
    """Never a crash (exit 70): any JSON mixing the exports' keys imports or raises InputError."""
    import tempfile
    with tempfile.TemporaryDirectory(dir=tmp_path) as folder:
        source = tmp_path / "conversations.json"
        source.write_text(json.dumps([data]), encoding="utf-8")
        app = build_app(folder, tz=UTC)
        try:
            report = import_file(source, app.logbook, app.archive, default_persona="hana", tz=UTC,
                                 now=datetime(2026, 12, 1, tzinfo=UTC))
        except InputError as exc:
            assert exc.exit_code == 2 and not app.logbook.files()
        else:
            assert report.imported == len(app.logbook.read_all().messages)
        finally:
            app.close()


def test_one_flush_reads_a_forty_file_import_and_opens_the_gate(home, tmp_path, capsys):
    """What the import report promises: the gate closes, one flush reads every file, and chat can go on."""
    from tests.support.scripted import ScriptedBackend
    conversations = [{"title": f"c{n}", "mapping": {"u": {"id": "u", "parent": None, "children": [], "message": {
        "author": {"role": "user"}, "create_time": T0 + n * 6 * 3600,
        "content": {"content_type": "text", "parts": [f"札幌の話 その{n}"]}}}}, "current_node": "u"} for n in range(40)]
    source = write(tmp_path / "conversations.json", conversations)
    assert cli.main(["import", str(source)]) == 0
    backend = ScriptedBackend(default_reply='{"items": []}')
    assert cli.main(["chat", "-m", "hello"], pinned_backend=backend) == 3  # the gate is closed
    assert cli.main(["flush"], pinned_backend=backend) == 0
    capsys.readouterr()
    assert cli.main(["status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert (status["unflushed_files"], status["gate"], status["archived_messages"]) == (0, "ok", 40)
    assert cli.main(["search", "--json", "札幌の話"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 40


def test_persona_option_names_whose_conversation_it_was(home, tmp_path):
    source = write(tmp_path / "conversations.json", claude_export())
    assert cli.main(["import", "--persona", "hana", str(source)]) == 0
    app = build_app(str(home))
    assert {m.persona for m in app.logbook.read_all().messages} == {"hana"}
    app.close()
