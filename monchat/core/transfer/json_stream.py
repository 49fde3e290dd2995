"""The import's second stage, stream (``core/transfer/importers.py``): an export read a piece at a time — the
top-level array of a JSON document one item at a time (a ChatGPT or Claude ``conversations.json``,
``conversations``), a JSONL file one line at a time (``jsonl_lines``). It reads; it knows no export's shape.

Python's ``json`` reads a whole document; an export of hundreds of megabytes took about five times its
size in memory that way. Here the file is decoded in chunks into a sliding text buffer and each item of
the top-level array is parsed with ``json.JSONDecoder.raw_decode`` as soon as the buffer holds all of
it, so memory holds one item (one conversation), not the file. An item that does not fit the buffer
yet grows it by doubling, so a large item costs a few re-parses, not one per chunk.

Values are what ``json.loads`` gives (NaN and ±Infinity become floats, for the importers to refuse
per message). Whatever cannot be read — a cut or damaged document, nesting too deep to parse, an item
larger than ``MAX_ITEM_CHARS``, text that is not UTF-8 — raises ``StreamError`` with where it was.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ..errors import InputError

CHUNK_CHARS = 1 << 20  # text decoded per read
MAX_ITEM_CHARS = 256_000_000  # one item (a conversation) larger than this is refused (README: limits)
_TAIL = 8  # a parse error this close to the buffer's end may be an item the buffer does not hold whole yet
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class StreamError(ValueError):
    """The document cannot be read as a top-level array; the message says what and where."""


def jsonl_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, bytes)`` of each non-blank line, read one at a time. Raises InputError."""
    try:
        with open(path, "rb") as handle:
            for line_no, raw_line in enumerate(handle, start=1):
                if raw_line.strip():
                    yield line_no, raw_line.rstrip(b"\r\n")
    except OSError as exc:
        raise unreadable(path, exc) from exc


def json_lines(path: Path) -> Iterator[tuple[int, object]]:
    """``(line number, its JSON value)`` of each non-blank line, one at a time; a line that is not UTF-8 JSON
    gives the ``ValueError`` that says why in place of its value (UnicodeDecodeError, JSONDecodeError, or
    nesting too deep). Raises InputError when the file cannot be read."""
    for line_no, line in jsonl_lines(path):
        try:
            value = loads(line.decode("utf-8"))
        except ValueError as exc:
            value = exc
        yield line_no, value


def conversations(path: Path) -> Iterator[object]:
    """Each item of the file's top-level list, read one at a time. Raises InputError."""
    try:
        yield from array_items(path)
    except StreamError as exc:
        raise damaged(path, exc) from None
    except OSError as exc:
        raise unreadable(path, exc) from exc


def loads(text: str | bytes):
    """``json.loads`` for what a user hands us: nesting too deep to read is a ValueError, not a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply to read (JSON arrays or objects inside each other thousands "
                         "of times)") from None


def unreadable(path: Path, exc: OSError) -> InputError:
    return InputError(f"Cannot read {path}: {exc.strerror}.", "Check the path.")


def damaged(path: Path, exc: StreamError) -> InputError:
    return InputError(f"{path} cannot be read: {exc}.", "Export it again from the service; nothing was imported.")


def first_char(path: Path) -> str:
    """The document's first character that is not white space ("" for an empty file). Raises OSError."""
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        while chunk := handle.read(4096):
            stripped = chunk.lstrip(" \t\n\r")
            if stripped:
                return stripped[0]
    return ""


def first_bad_byte(path: Path | str, block: int = 1 << 16) -> str:
    """Where the file's first byte that is not UTF-8 is: ``byte 3,001, line 2``, both counted from 1.

    Python's text reader says only that a block it decoded held one; this reads the bytes again to say where."""
    base, line, carry = 0, 1, b""  # base: the file offset of carry's first byte
    with open(path, "rb") as raw:
        while True:
            piece = raw.read(block)
            data = carry + piece
            try:
                data.decode("utf-8")
                good = len(data)
            except UnicodeDecodeError as exc:
                if not (piece and exc.end == len(data) and exc.reason == "unexpected end of data"):
                    line += data.count(b"\n", 0, exc.start)
                    return f"byte {base + exc.start + 1:,}, line {line:,}"
                good = exc.start  # a character cut by the block's end: decoded with the next block
            line += data.count(b"\n", 0, good)
            base, carry = base + good, data[good:]
            if not piece:
                return f"byte {base + 1:,}, line {line:,}"  # not reached: the text reader failed on these bytes


class _Buffer:
    """The file's text from ``start`` on, read in chunks."""

    def __init__(self, handle, chunk: int) -> None:
        self.handle, self.chunk = handle, chunk
        self.text, self.pos, self.offset, self.eof = "", 0, 0, False  # offset: characters dropped before text

    def more(self, at_least: int = 0) -> bool:
        """Read on (dropping what was consumed); False at the end of the file."""
        if self.eof:
            return False
        self.offset += self.pos
        self.text, self.pos = self.text[self.pos:], 0
        want = max(self.chunk, at_least)
        try:
            piece = self.handle.read(want)
        except UnicodeDecodeError:
            raise StreamError(f"the file is not UTF-8 text at {first_bad_byte(self.handle.name)}") from None
        if not piece:
            self.eof = True
            return False
        self.text += piece
        return True

    def skip_space(self) -> str:
        """The next character that is not white space ("" at the end of the file), not consumed."""
        while True:
            space = _SPACE.match(self.text, self.pos)
            assert space is not None  # a run of zero or more spaces matches anywhere
            self.pos = space.end()
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.more():
                return ""

    def where(self) -> str:
        return f"character {self.offset + self.pos + 1:,}"


def array_items(path: Path, *, chunk: int = CHUNK_CHARS, max_item: int | None = None) -> Iterator[object]:
    """Each item of the top-level JSON array in ``path``, parsed, in order.

    Raises:
        StreamError: the document is not an array, is cut off or damaged, nests too deeply, holds an
            item over ``max_item`` characters or is not UTF-8 (items before it were yielded).
        OSError: the file cannot be read.
    """
    max_item = MAX_ITEM_CHARS if max_item is None else max_item
    with open(path, encoding="utf-8-sig") as handle:
        buf = _Buffer(handle, chunk)
        if buf.skip_space() != "[":
            raise StreamError("the document is not a JSON array")
        buf.pos += 1
        if buf.skip_space() == "]":
            buf.pos += 1
        else:
            while True:
                yield _item(buf, max_item)
                separator = buf.skip_space()
                if separator not in (",", "]"):
                    raise StreamError(f"expected ',' or ']' at {buf.where()}" if separator
                                      else "the document ends in the middle (the file is cut off)")
                buf.pos += 1
                if separator == "]":
                    break
        if buf.skip_space():
            raise StreamError(f"more text follows the array at {buf.where()}")


def _item(buf: _Buffer, max_item: int) -> object:
    """Parse the item at the buffer's position, reading on until the buffer holds all of it."""
    if not buf.skip_space():
        raise StreamError("the document ends in the middle (the file is cut off)")
    while True:
        try:
            value, end = _DECODER.raw_decode(buf.text, buf.pos)
        except RecursionError:
            raise StreamError(f"nested too deeply to read at {buf.where()} (JSON arrays or objects inside each "
                              "other thousands of times)") from None
        except json.JSONDecodeError as exc:
            unterminated = exc.msg.startswith("Unterminated string")
            if not buf.eof and (unterminated or exc.pos >= len(buf.text) - _TAIL):
                if len(buf.text) - buf.pos > max_item:
                    raise StreamError(f"an item at {buf.where()} is larger than {max_item:,} characters") from None
                buf.more(at_least=len(buf.text) - buf.pos)  # doubles what the item may span
                continue
            raise StreamError("the document ends in the middle (the file is cut off)"
                              if unterminated or exc.pos >= len(buf.text)
                              else f"not valid JSON at character {buf.offset + exc.pos + 1:,} ({exc.msg})") from None
        except ValueError as exc:  # a number too long to convert (Python's 4,300-digit limit)
            raise StreamError(f"cannot read the value at {buf.where()}: {exc}") from None
        if not buf.eof and end >= len(buf.text) - _TAIL:
            buf.more(at_least=len(buf.text) - buf.pos)  # a number may go on in the next chunk: parse it again
            continue
        if end - buf.pos > max_item:
            raise StreamError(f"an item at {buf.where()} is larger than {max_item:,} characters")
        buf.pos = end
        return value
