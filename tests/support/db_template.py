"""One migrated database per test session (per xdist worker), copied where a test's ``Store`` would create one.

Migrating a blank ``monchat.db`` (every migration, each commit fsynced under ``synchronous = FULL``) took
0.10-0.17 s a test on 2 cores, and nearly every test builds an app. ``use_migrated_template`` makes ``Store``
find, where it would create a database, a copy of one this session migrated once: the same file a fresh
migration makes (``tests/test_db_template.py`` compares them), with the same mode (0600) and journal (WAL);
``Store`` then finds every migration applied, as it does on any later start. Only a file that does not exist
is copied over, so a test that puts its own file there first (a damaged one, one from a newer monchat) gets
what it wrote; a folder the copy cannot be written to falls back to ``Store``'s own creation, and its error.
A new process (``python -m monchat``) migrates for itself. The template's folder is removed at the session's end
(``discard_template``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from monchat.core.store.db import Store

_template: Path | None = None
_original_init = Store.__init__


def migrated_template() -> Path:
    """This process's migrated database (made at the first call)."""
    global _template
    if _template is None or not _template.exists():
        folder = Path(tempfile.mkdtemp(prefix="monchat-db-template-"))
        path = folder / "monchat.db"
        store = Store.__new__(Store)
        _original_init(store, path)
        store.close()
        _template = path
    return _template


def discard_template() -> None:
    """Remove this process's template and its folder (tests/conftest.py, at the session's end): a run leaves
    nothing in the temporary folder."""
    global _template
    if _template is not None:
        shutil.rmtree(_template.parent, ignore_errors=True)
        _template = None


def _copy_template(path: Path) -> None:
    if path.exists() or not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        return
    try:
        partial = path.with_name(path.name + ".template-copy")
        shutil.copyfile(migrated_template(), partial)
        os.chmod(partial, 0o600)
        os.rename(partial, path)
    except OSError:
        Path(path.with_name(path.name + ".template-copy")).unlink(missing_ok=True)


def use_migrated_template(monkeypatch) -> None:
    """For the test that owns ``monkeypatch``: a Store made where no database is yet starts as a copy."""

    def __init__(self, path, *args, **kwargs):
        target = Path(path)
        if not target.exists():
            try:
                from monchat.core.paths import make_private_dir
                make_private_dir(target.parent)  # what Store does first; its errors are Store's to report
            except OSError:
                pass
            else:
                _copy_template(target)
        _original_init(self, path, *args, **kwargs)

    monkeypatch.setattr(Store, "__init__", __init__)
