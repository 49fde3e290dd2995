"""A ChatGPT or Claude ``conversations.json`` is streamed one conversation at a time (issue 25, point 8).

``core/transfer/json_stream.py`` reads the top-level array in chunks; these tests check it gives exactly what
``json.loads`` gives at any chunk size, refuses what cannot be read with its place, and that an import
holds one conversation in memory, not the export.
"""

from __future__ import annotations

import json
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.transfer import json_stream
from monchat.core.transfer.json_stream import StreamError, array_items
from tests.test_importers import T0, chatgpt_export, claude_export

values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                      | st.text(max_size=12), lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(values, max_size=6), chunk=st.integers(1, 40), indent=st.sampled_from([None, 0, 2]))
def test_the_stream_gives_what_json_loads_gives_at_any_chunk_size(tmp_path, items, chunk, indent):
    path = tmp_path / "list.json"
    path.write_text(json.dumps(items, indent=indent, ensure_ascii=False), encoding="utf-8")
    assert list(array_items(path, chunk=chunk)) == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text, why", [
    ('[{"a": 1}, {"b": ', "cut off"),
    ('[{"a": 1}, {"b": "no end', "cut off"),
    ('[{"a": 1} {"b": 2}]', "expected ',' or ']' at character 11"),
    ('[{"a": bad}]', "not valid JSON at character 8"),
    ('[1] [2]', "more text follows the array"),
    ('[1, ' + "[" * 100_000 + "]" * 100_000 + "]", "nested too deeply to read at character 5"),
    ('{"a": 1}', "not a JSON array"),
])
def test_what_the_stream_cannot_read_is_refused_with_where(tmp_path, text, why):
    path = tmp_path / "list.json"
    path.write_text(text, encoding="utf-8")
    for chunk in (1, 3, 1 << 20):
        with pytest.raises(StreamError, match=why.replace("[", r"\[").replace("]", r"\]")):
            list(array_items(path, chunk=chunk))


def test_numbers_split_between_chunks_are_read_whole(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[12345678, 2.5e-3, -Infinity, true, 7]", encoding="utf-8")
    for chunk in range(1, 12):
        assert list(array_items(path, chunk=chunk))[:2] == [12345678, 2.5e-3]


def test_a_cut_off_export_imports_nothing_and_says_so(home, tmp_path, capsys):
    whole = json.dumps(chatgpt_export(), ensure_ascii=False)
    source = tmp_path / "conversations.json"
    source.write_text(whole[: len(whole) - 40], encoding="utf-8")  # the second conversation is cut
    for extra in ([], ["--skip-bad"]):
        assert cli.main(["import", str(source), *extra]) == 2
        err = capsys.readouterr().err
        assert "cut off" in err and "internal error" not in err
        assert not list((home / "logs").glob("*.jsonl"))


def test_a_conversation_larger_than_the_limit_is_refused_with_exit_2(home, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(json_stream, "MAX_ITEM_CHARS", 5_000)
    export = claude_export()
    export[0]["chat_messages"][0]["text"] = "a long paste " * 1000  # 13,000 characters
    source = tmp_path / "conversations.json"
    source.write_text(json.dumps(export), encoding="utf-8")
    assert cli.main(["import", str(source)]) == 2
    assert "larger than 5,000 characters" in capsys.readouterr().err
    assert not list((home / "logs").glob("*.jsonl"))


def padded_export(conversations: int, padding: int) -> list:
    """ChatGPT conversations of one short message each, padded with a large field no import reads."""
    return [{"id": f"c{n}", "title": f"chat {n}", "create_time": T0, "current_node": "u", "plugin_data": "x" * padding,
             "mapping": {"u": {"id": "u", "parent": None, "children": [], "message": {
                 "id": "u", "author": {"role": "user"}, "create_time": T0 + n,
                 "content": {"content_type": "text", "parts": [f"message {n}"]}}}}} for n in range(conversations)]


def test_an_export_is_read_one_conversation_at_a_time_not_whole(home, tmp_path):
    source = tmp_path / "conversations.json"
    source.write_text(json.dumps(padded_export(300, 100_000)), encoding="utf-8")  # 30 MB
    application = build_app(str(home))
    try:
        from monchat.core.transfer.importers import import_file
        tracemalloc.start()
        report = import_file(source, application.logbook, application.archive, default_persona="hana")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert report.imported == 300
        assert peak < 10_000_000  # a chunk or two and a conversation, not 30 MB of text and its objects
        assert sorted(m.text for m in application.logbook.read_all().messages)[:2] == ["message 0", "message 1"]
    finally:
        tracemalloc.stop()
        application.close()
