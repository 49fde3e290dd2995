"""One way into the archive, kept by the code's shape (issue 36, item 1): one writer of message rows.

* Only ``core/store/messages.py`` (``MessageArchive``) writes SQL that inserts into, updates or replaces rows of the
  ``messages`` table — its delete is Delete message's and the scrubber's way out — plus a released migration
  (m024 filled its new columns) that is never edited. Every string constant of every module is read, f-strings
  included, and every ``db["messages"].insert/upsert/update…`` call of sqlite-utils.
* Only the flush's commit calls the writer (``MessageArchive.archive``): what it archives is what the log files
  hold, which only the user's typing here and a history import of the user's own chats write. A memory file's
  evidence, an MCP proposal, a card or a restored setting is quoted material and never reaches it.

Seen failing: a planted ``INSERT INTO messages`` in a core module and a planted ``archive.archive(...)`` call in
``core/transfer/memory_import.py`` (as it was before issue 36) each make the test below fail.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import monchat

PACKAGE = Path(monchat.__file__).parent
WRITER = "core/store/messages.py"
# Writes of message rows allowed besides the writer: a released migration (never edited) fills the columns it adds.
ALLOWED_SQL = {WRITER, "core/store/migrations.py", "core/store/early_migrations.py"}
# Who may hand messages to the writer: the flush archives the log files' lines (typed here or a history import).
ARCHIVE_CALLERS = {"core/flush/commit.py",
                   "core/sync/service.py"}  # another device's journal: its messages, marked with their origin
WRITE_SQL = re.compile(r"\b(INSERT(\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(\s+OR\s+\w+)?)\s+[\"'`\[]?messages\b(?!_)",
                       re.IGNORECASE)
SQLITE_UTILS_WRITES = {"insert", "insert_all", "upsert", "upsert_all", "update", "lookup"}


def _text(node: ast.AST) -> str | None:
    """A string constant, or an f-string's literal parts joined (``f"INSERT INTO messages ({cols})"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _strings(tree: ast.AST) -> list[str]:
    """Every string of a module, adjacent parts of one expression joined (``("INSERT " "INTO messages")``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = [_text(node.left), _text(node.right)]
            if all(p is not None for p in parts):
                found.append("".join(p for p in parts if p is not None))
        text = _text(node)
        if text is not None:
            found.append(text)
    return found


def _table_writes(tree: ast.AST) -> bool:
    """``db["messages"].insert(...)`` (and the other sqlite-utils writes) anywhere in the module."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in SQLITE_UTILS_WRITES and isinstance(node.func.value, ast.Subscript)
                and _text(node.func.value.slice) == "messages"):
            return True
    return False


def _archive_calls(tree: ast.AST) -> bool:
    """A call of the writer: ``<something>.archive(...)`` (``MessageArchive.archive``)."""
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "archive"
               for node in ast.walk(tree))


def writers(sources: dict[str, str]) -> dict[str, list[str]]:
    """Module → what it does that only the one writer (or its one caller) may do."""
    found: dict[str, list[str]] = {}
    for name, source in sources.items():
        tree = ast.parse(source)
        what = []
        if name not in ALLOWED_SQL and (any(WRITE_SQL.search(s) for s in _strings(tree)) or _table_writes(tree)):
            what.append("writes message rows")
        if name not in ARCHIVE_CALLERS | {WRITER} and _archive_calls(tree):
            what.append("calls MessageArchive.archive")
        if what:
            found[name] = what
    return found


def sources() -> dict[str, str]:
    return {str(p.relative_to(PACKAGE)): p.read_text(encoding="utf-8")
            for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def test_one_module_writes_message_rows_and_only_the_flush_hands_it_messages():
    assert writers(sources()) == {}


def test_the_writer_inserts_and_never_replaces():
    """The writer's one statement keeps a row already there (``INSERT OR IGNORE``): an id already taken is never
    given other words by an insert; Edit appends a new message that ``replaces`` the old id."""
    statements = [s for s in _strings(ast.parse((PACKAGE / WRITER).read_text(encoding="utf-8")))
                  if WRITE_SQL.search(s)]
    assert statements and all(re.match(r"INSERT OR IGNORE INTO messages\b", s) for s in statements)


def test_the_check_sees_a_planted_insert_update_or_call():
    planted = {
        "core/chat/planted.py": 'def f(db):\n    db.execute("INSERT INTO messages (id, text) VALUES (?, ?)", [1, 2])\n',
        "core/logs/planted.py": 'def f(db, t):\n    db.execute(f"UPDATE messages SET text = ? WHERE id = ?", [t, 1])\n',
        "core/memory/planted.py": 'def f(db):\n    db["messages"].upsert({"id": 1, "text": "x"}, pk="id")\n',
        "core/background/planted.py": 'def f(db):\n    db.execute("INSERT OR REPLACE " "INTO messages VALUES (1)")\n',
        "core/transfer/memory_import.py": "def f(archive, messages):\n    archive.archive(messages)\n",
        "core/store/fts_ok.py": 'def f(db):\n    db.execute("INSERT INTO messages_fts(messages_fts) VALUES(\'optimize\')")\n',
    }
    assert writers(planted) == {
        "core/chat/planted.py": ["writes message rows"], "core/logs/planted.py": ["writes message rows"],
        "core/memory/planted.py": ["writes message rows"], "core/background/planted.py": ["writes message rows"],
        "core/transfer/memory_import.py": ["calls MessageArchive.archive"]}
