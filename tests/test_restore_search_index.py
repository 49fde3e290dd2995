"""A restored database's search indexes are checked by FTS5 itself and rebuilt from what they index.

``PRAGMA integrity_check`` does not look inside an FTS5 index: a backup whose ``messages_fts_data`` blocks
are random bytes restored with exit 0, and then every ``monchat search`` exited 6. Now the restore checks
each index (``INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')``) and rebuilds a damaged
one from the archive, whose messages are the truth (``core/store/restored.py`` ``check_search_indexes``).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from monchat.cli import main as cli
from monchat.core.paths import Paths
from tests.test_restore_clean import beside
from tests.test_restore_hostile import entries, fill, make_zip
from tests.test_restore_kill import messages


def backup_with(tmp_path: Path, monkeypatch, damage) -> Path:
    source = tmp_path / "source"
    fill(source, 4)
    monkeypatch.setenv("MONCHAT_HOME", str(source))
    assert cli.main(["backup", str(tmp_path / "good.zip")]) == 0
    items = entries((tmp_path / "good.zip").read_bytes())
    db = tmp_path / "edit.db"
    db.write_bytes(items["data/monchat.db"])
    conn = sqlite3.connect(db)
    damage(conn)
    conn.commit()
    conn.close()
    items["data/monchat.db"] = db.read_bytes()
    (tmp_path / "bad.zip").write_bytes(make_zip(items))
    return tmp_path / "bad.zip"


def random_blocks(where: str, index: str = "messages_fts"):
    def damage(conn):
        for rowid, size in conn.execute(f"SELECT id, length(block) FROM {index}_data {where}").fetchall():
            conn.execute(f"UPDATE {index}_data SET block = ? WHERE id = ?", [os.urandom(max(size, 8)), rowid])
    return damage


def planted_word(conn):
    """The index says a message holds a word the archive's message does not (its trigger put aside)."""
    trigger = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages' "
                           "AND sql LIKE '%AFTER UPDATE%'").fetchone()
    conn.execute("INSERT INTO messages_fts(messages_fts, rowid, text) SELECT 'delete', rowid, text FROM messages "
                 "WHERE id = 'm1'")
    conn.execute("INSERT INTO messages_fts(rowid, text) SELECT rowid, 'plantedword' FROM messages WHERE id = 'm1'")
    assert trigger is not None


def found(capsys, query: str) -> list[str]:
    capsys.readouterr()
    code = cli.main(["search", "--json", query])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return [hit["text"] for hit in json.loads(out)] if code == 0 else []


@pytest.mark.parametrize("damage", [random_blocks(""), random_blocks("WHERE id > 10"), random_blocks("WHERE id = 10"),
                                    random_blocks("", "memories_fts"), planted_word],
                         ids=["every block", "segments", "structure", "memories index", "a word not in the archive"])
def test_a_backup_with_a_damaged_search_index_restores_and_search_finds_the_messages(tmp_path, monkeypatch,
                                                                                    capsys, damage):
    bad = backup_with(tmp_path, monkeypatch, damage)
    home = tmp_path / "home"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    capsys.readouterr()
    assert cli.main(["restore", str(bad)]) == 0
    assert messages(Paths.from_env()) == 4
    assert sorted(found(capsys, "message")) == [f"message {k}" for k in range(4)]
    assert found(capsys, "plantedword") == []
    conn = sqlite3.connect(home / "monchat.db")
    try:
        for index in ("messages_fts", "memories_fts"):
            # raises when damaged, or (rank 1) when it indexes other words than its table holds
            conn.execute(f"INSERT INTO {index}({index}, rank) VALUES('integrity-check', 1)")
    finally:
        conn.close()
    assert beside(Paths.from_env()) == []


def test_an_index_that_cannot_be_rebuilt_from_its_table_is_a_refusal(tmp_path):
    """When the table an index is rebuilt from cannot give its words, the copy is refused (``restore``: exit 2),
    never restored with a search that fails."""
    from monchat.core.store.restored import ForeignDatabase, check_search_indexes
    db = tmp_path / "x.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE messages(id TEXT, text TEXT)")
    conn.execute("CREATE VIRTUAL TABLE messages_fts USING fts5(text, tokenize='trigram', content='messages')")
    conn.execute("INSERT INTO messages VALUES ('m1', 'hello there')")
    conn.execute("INSERT INTO messages_fts(rowid, text) VALUES (1, 'hello there')")
    conn.commit()
    assert check_search_indexes(db) == []  # a sound index is left as it is
    conn.execute("ALTER TABLE messages RENAME COLUMN text TO words")  # the index's table lost its column
    conn.commit()
    conn.close()
    with pytest.raises(ForeignDatabase, match="search index messages_fts"):
        check_search_indexes(db)
