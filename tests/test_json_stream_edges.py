"""The import stream's own readers, word for word (issue 44: mutants of ``core/transfer/json_stream.py``).

The JSONL reader (monchat and SillyTavern files) had no fast test of its own: its line numbers, the blank lines it
skips, the line ends it strips and no more; what a line that is not JSON, not UTF-8 or nested too deeply gives; the
errors a user reads for a missing or damaged file, with their hints; and the first character that tells a JSON
document from a list of lines (a byte-order mark, white space past the first 4,096 characters, bytes that are not
UTF-8).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monchat.core.errors import InputError
from monchat.core.transfer.json_stream import StreamError, array_items, conversations, first_char, json_lines, jsonl_lines

CUT_OFF = "the document ends in the middle (the file is cut off)"


def test_jsonl_lines_are_numbered_from_one_skip_blank_lines_and_lose_only_their_line_end(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"a": 1}\r\n\n   \n\r{"b": 2}  \n{"c": 3}')
    assert list(jsonl_lines(path)) == [(1, b'{"a": 1}'), (4, b'\r{"b": 2}  '), (5, b'{"c": 3}')]


def test_json_lines_give_each_value_or_why_it_is_none(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"a": 1}\nnot json\n\xff\xfe\n' + b"[" * 100_000 + b"]" * 100_000 + b'\n"\xc3\xa9"\n')
    read = list(json_lines(path))
    assert [n for n, _ in read] == [1, 2, 3, 4, 5]
    assert read[0][1] == {"a": 1} and read[4][1] == "é"
    assert isinstance(read[1][1], json.JSONDecodeError)
    assert isinstance(read[2][1], UnicodeDecodeError)
    assert isinstance(read[3][1], ValueError) and str(read[3][1]) == (
        "nested too deeply to read (JSON arrays or objects inside each other thousands of times)")


@pytest.mark.parametrize("read", [lambda p: list(jsonl_lines(p)), lambda p: list(conversations(p))])
def test_a_missing_file_is_named_with_the_systems_reason_and_a_hint(tmp_path, read):
    path = tmp_path / "gone.json"
    with pytest.raises(InputError) as caught:
        read(path)
    assert caught.value.message == f"Cannot read {path}: No such file or directory."
    assert caught.value.hint == "Check the path."


def test_a_damaged_export_names_the_file_where_it_stops_and_that_nothing_was_imported(tmp_path):
    path = tmp_path / "conversations.json"
    path.write_text('[{"id": 1}, {"id": ', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        list(conversations(path))
    assert caught.value.message == f"{path} cannot be read: {CUT_OFF}."
    assert caught.value.hint == "Export it again from the service; nothing was imported."


@pytest.mark.parametrize("text, why", [
    ("[1, ", CUT_OFF),
    ("[" + "[" * 100_000, "nested too deeply to read at character 2 (JSON arrays or objects inside each other "
                          "thousands of times)"),
])
def test_what_a_cut_or_too_deep_document_says(tmp_path, text, why):
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StreamError) as caught:
        list(array_items(path))
    assert str(caught.value) == why


@pytest.mark.parametrize("raw, first", [
    (b"", ""),
    (b" \t\r\n", ""),
    (b"\xef\xbb\xbf  [1]", "["),  # a byte-order mark is not a character of the document
    (b" " * 10_000 + b"{}", "{"),  # past the first chunk
    (b"  x" + b" " * 10, "x"),
    (b"\xff{", "\ufffd"),  # not UTF-8: read as a replacement character, not a crash
    ("\u3000[]".encode(), "\u3000"),  # JSON's white space is space, tab, CR and LF only
])
def test_the_first_character_of_a_document(tmp_path, raw, first):
    path = tmp_path / "doc"
    path.write_bytes(raw)
    assert first_char(Path(path)) == first
