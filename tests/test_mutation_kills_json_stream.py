"""The import stream's edges that the mutmut run of ``core/transfer/json_stream.py`` found unpinned (issue 44).

What a user reads when an export cannot be imported (the file that is not UTF-8 and where, a number too long, a
document that is not an array, one cut right after an item), the text glued to the array's end that must not be
taken for its end, an export that starts with white space or a byte-order mark, items near the size limit read
across chunk edges, a damaged item at the limit said to be damaged (not too large), and how far the buffer
reads on for an item that does not fit it yet (what keeps memory to one item). docs/testing.md lists the
survivors these kill and the ones that are equivalent.
"""

from __future__ import annotations

import io

import pytest

from monchat.core.errors import InputError
from monchat.core.transfer.json_stream import (StreamError, _Buffer, _item, array_items, conversations, first_bad_byte,
                                               first_char,
                                               jsonl_lines)

CUT_OFF = "the document ends in the middle (the file is cut off)"


def read(tmp_path, data: bytes | str, **kwargs) -> list:
    path = tmp_path / "conversations.json"
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return list(array_items(path, **kwargs))


def refusal(tmp_path, data: bytes | str, **kwargs) -> str:
    with pytest.raises(StreamError) as caught:
        read(tmp_path, data, **kwargs)
    return str(caught.value)


def test_a_jsonl_line_keeps_every_byte_but_its_line_end(tmp_path):
    path = tmp_path / "chat.jsonl"
    path.write_bytes(b'{"a": 1} XX\nnot json X\r\n')
    assert list(jsonl_lines(path)) == [(1, b'{"a": 1} XX'), (2, b"not json X")]


def test_a_document_starting_with_a_letter_is_told_by_that_letter(tmp_path):
    path = tmp_path / "doc"
    path.write_bytes(b"XML, not JSON")
    assert first_char(path) == "X"


@pytest.mark.parametrize("chunk", [1000, 4096])
@pytest.mark.parametrize("before", [b"1, " * 3000, b'"' + b"a" * 9000], ids=["small-items", "inside-one-item"])
def test_a_file_that_is_not_utf8_says_the_byte_and_line_of_the_first_bad_byte(tmp_path, chunk, before):
    # Python decodes a file in blocks of 8,192 bytes: the bad byte, past the 9,000th, is in the second block, and
    # the text reader says only that a block held one. The place named is the byte itself, counted from 1.
    path = tmp_path / "conversations.json"
    path.write_bytes(b"[" + before + b"\xff]")
    with pytest.raises(StreamError) as caught:
        list(array_items(path, chunk=chunk))
    assert str(caught.value) == f"the file is not UTF-8 text at byte {len(before) + 2:,}, line 1"


def test_a_file_that_is_not_utf8_is_named_to_the_user(tmp_path):
    path = tmp_path / "conversations.json"
    path.write_bytes(b"[\xff]")
    with pytest.raises(InputError) as caught:
        list(conversations(path))
    assert caught.value.message == f"{path} cannot be read: the file is not UTF-8 text at byte 2, line 1."


@pytest.mark.parametrize("block", [4, 5, 6, 7, 64])
def test_the_first_bad_byte_is_found_across_blocks_and_lines(tmp_path, block):
    # "é" is two bytes and "日" three: a small block cuts them, and a cut character is not a bad byte.
    path = tmp_path / "export.json"
    path.write_bytes('[\n"é日",\n"ok"\n'.encode() + b'"\xc3"]')
    assert first_bad_byte(path, block) == "byte 18, line 4"


def test_a_number_too_long_to_read_says_so_and_where(tmp_path):
    why = refusal(tmp_path, "[1, " + "9" * 5000 + "]")
    assert why.startswith("cannot read the value at character 5: ") and "4300" in why


def test_a_document_that_is_not_an_array_says_so(tmp_path):
    path = tmp_path / "conversations.json"
    path.write_text('{"conversations": []}', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        list(conversations(path))
    assert caught.value.message == f"{path} cannot be read: the document is not a JSON array."


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_a_document_cut_right_after_an_item_is_cut_off_not_missing_a_comma(tmp_path, chunk):
    assert refusal(tmp_path, '[{"id": 1}', chunk=chunk) == CUT_OFF
    assert refusal(tmp_path, '[{"id": 1} {"id": 2}]', chunk=chunk) == "expected ',' or ']' at character 12"


@pytest.mark.parametrize("text, where", [("[]x", 3), ("[1]x", 4), ('[{"id": 1}]]', 12)])
def test_text_glued_to_the_arrays_end_is_refused(tmp_path, text, where):
    assert refusal(tmp_path, text) == f"more text follows the array at character {where}"


@pytest.mark.parametrize("data", ["  \n[1, 2]", "\ufeff[1, 2]", "\ufeff \t[1, 2]"])
def test_an_export_starting_with_white_space_or_a_byte_order_mark_is_read(tmp_path, data):
    assert read(tmp_path, data) == [1, 2]


@pytest.mark.parametrize("chunk", [7, 16, 64])
def test_items_within_the_limit_are_read_across_chunk_edges_deep_into_the_file(tmp_path, chunk):
    items = [f"item {n:03}" for n in range(200)]  # 10 characters each with its quotes, the limit 12
    text = "[" + ", ".join(f'"{item}"' for item in items) + "]"
    assert read(tmp_path, text, chunk=chunk, max_item=12) == items


def test_a_damaged_item_exactly_at_the_limit_is_said_to_be_damaged_not_too_large(tmp_path):
    # The first read holds "[" and the 9 characters of the item: its error is near the buffer's end, so the
    # stream reads on before judging; the item is not over the limit of 9, so it is not refused as too large.
    why = refusal(tmp_path, '[{"a":1,}]', chunk=10, max_item=9)
    assert why == "not valid JSON at character 9 (Expecting property name enclosed in double quotes)"


class Reads(io.StringIO):
    """A text file that notes how many characters each read asked for."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.asked: list[int] = []

    def read(self, size: int | None = -1) -> str:
        self.asked.append(-1 if size is None else size)
        return super().read(size)


def test_an_item_that_does_not_fit_reads_on_by_what_it_spans_not_by_what_was_consumed():
    handle = Reads(" " * 12 + '"' + "a" * 40 + '"')
    buf = _Buffer(handle, chunk=16)
    assert buf.skip_space() == '"' and buf.pos == 12
    assert _item(buf, max_item=1000) == "a" * 40
    # 12 spaces consumed, 4 characters of the item held: a chunk more, then the item's 20 again (doubling), …
    assert handle.asked[:3] == [16, 16, 20]
