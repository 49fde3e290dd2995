"""The tests' migrated database template (tests/support/db_template.py) is what a fresh migration makes."""

from __future__ import annotations

import sqlite3
import stat

import pytest

from monchat.app import build_app
from monchat.core.errors import StorageCorrupt
from monchat.core.store.db import Store
from monchat.core.store.migrations import known_names
from tests.support.db_template import use_migrated_template


def dump(path) -> dict:
    """Everything in the file a test could read: schema, rows (but the migrations' times), pragmas."""
    conn = sqlite3.connect(path)
    try:
        schema = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
        rows = {}
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            columns = [c[1] for c in conn.execute(f"PRAGMA table_info('{table}')") if c[1] != "applied_at"]
            if columns:
                rows[table] = conn.execute(f"SELECT {', '.join(repr(c) for c in columns)} FROM '{table}'"
                                           f" ORDER BY 1").fetchall()
        pragmas = {p: conn.execute(f"PRAGMA {p}").fetchone()[0]
                   for p in ("journal_mode", "user_version", "page_size", "auto_vacuum", "encoding")}
        return {"schema": schema, "rows": rows, "pragmas": pragmas}
    finally:
        conn.close()


def test_a_copied_database_is_the_one_a_fresh_migration_makes(tmp_path, monkeypatch):
    fresh = Store(tmp_path / "fresh" / "monchat.db")
    fresh.close()
    use_migrated_template(monkeypatch)
    copied = Store(tmp_path / "copied" / "monchat.db")
    copied.close()
    assert dump(tmp_path / "copied" / "monchat.db") == dump(tmp_path / "fresh" / "monchat.db")
    for name in ("fresh", "copied"):
        mode = (tmp_path / name / "monchat.db").stat().st_mode
        assert stat.S_IMODE(mode) == 0o600
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o700
    assert sorted(p.name for p in (tmp_path / "copied").iterdir()) == sorted(
        p.name for p in (tmp_path / "fresh").iterdir())


def test_an_app_built_on_the_copy_has_every_migration_applied(tmp_path, monkeypatch):
    use_migrated_template(monkeypatch)
    app = build_app(str(tmp_path / "home"))
    try:
        assert app.store.applied_migrations() == known_names()
        assert app.store.integrity() == "ok"
    finally:
        app.store.close()


def test_a_file_already_there_is_never_replaced(tmp_path, monkeypatch):
    use_migrated_template(monkeypatch)
    path = tmp_path / "monchat.db"
    path.write_bytes(b"not a database")
    with pytest.raises(StorageCorrupt):
        Store(path)
    assert path.read_bytes() == b"not a database"


def test_the_template_is_removed_at_the_sessions_end(tmp_path, monkeypatch):
    """tests/conftest.py calls discard_template when a session ends: runs leave no monchat-db-template-* behind."""
    from tests.support import db_template

    monkeypatch.setattr(db_template, "_template", None)  # this test's own template, not the session's
    folder = db_template.migrated_template().parent
    assert folder.name.startswith("monchat-db-template-") and folder.is_dir()
    db_template.discard_template()
    assert not folder.exists() and db_template._template is None
