"""Replacing a data folder whole, and finishing that after a kill.

A restore puts each folder it replaces aside (``.NAME-old-*``) and renames its checked copy
(``.NAME-restore-*``) into place: two renames per folder, which a kill can separate. Before the
first rename it writes a journal (``.NAME-restore.journal`` beside the data folder) naming every
folder, its copy and its aside name; after the last it marks the journal done, removes the old
folders, then the journal. Whatever starts next — a restore, any command, the window
(``recover_interrupted``, called before the data folder is used or created) — reads it:

- a journal still swapping: the copies were checked, so the swap is finished;
- a journal done: the old folders are removed;
- no journal: a copy that was never complete is removed, and a folder put aside goes back when
  nothing (or an empty folder) stands in its place. A folder aside beside a folder in use is kept
  and reported: without a journal nothing proves it is not the only copy.

A lock beside the data folder (``.NAME-restore.lock``) is held by a restore from start to end and
taken by recovery, so nothing recovers a restore that is still running; its holder removes it
(``restore_lock`` says why that is safe), and recovery removes one a kill left, with any half-written
journal temp file: after any restore, and after the recovery of a killed one, nothing of it is left
beside the data folder.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Iterator

from ..errors import StorageError, StorageLocked, storage_error
from ..paths import Paths, fsync_folder, make_private_dir, write_private

log = logging.getLogger(__name__)


def _targets(paths: Paths) -> list[Path]:
    return list(dict.fromkeys([paths.data_dir, paths.config_dir]))


def _journal(paths: Paths) -> Path:
    return paths.data_dir.with_name(f".{paths.data_dir.name}-restore.journal")


def _lock_path(paths: Paths) -> Path:
    return paths.data_dir.with_name(f".{paths.data_dir.name}-restore.lock")


def stages(target: Path) -> list[Path]:
    return sorted(target.parent.glob(f".{target.name}-restore-*"))


def olds(target: Path) -> list[Path]:
    return sorted(target.parent.glob(f".{target.name}-old-*"))


def _journal_temps(paths: Paths) -> list[Path]:
    """Temp files of the journal (``paths.write_private``'s) that a killed restore left half-written."""
    journal = _journal(paths)
    return sorted(journal.parent.glob(f".{journal.name}.*.tmp")) if journal.parent.is_dir() else []


def _left_over(paths: Paths) -> bool:
    if _journal(paths).exists() or os.path.lexists(_lock_path(paths)) or _journal_temps(paths):
        return True
    return any(t.parent.is_dir() and (stages(t) or olds(t)) for t in _targets(paths))


@contextlib.contextmanager
def restore_lock(paths: Paths, wait_s: float = 0.0) -> Iterator[None]:
    """Hold the restore lock of ``paths``, waiting up to ``wait_s`` seconds for it.

    The lock is ``flock`` on ``.NAME-restore.lock`` beside the data folder, and that file exists only
    while someone holds it: the holder removes it *before* letting go, so a restore (done, refused or
    failed) leaves nothing beside the folder. Removing a lock file is safe here because a process counts
    the lock as its own only when the file it locked is still the one at the path (same device and inode,
    compared while it holds the lock and its descriptor keeps the inode from being reused). One that
    opened the file before its holder removed it gets its ``flock`` on a removed file, sees that, and
    starts again with the file now at the path. So at any moment the only lock that counts is the one
    on the file at the path, and it has one holder. A SIGKILLed holder leaves the empty file;
    ``recover_interrupted`` takes it and removes it.

    Raises:
        StorageLocked: a restore into these folders is running in another process.
    """
    lock = _lock_path(paths)
    make_private_dir(lock.parent)
    deadline = time.monotonic() + wait_s
    while True:
        fd = _open_lock(lock)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise StorageLocked(f"A restore into {paths.data_dir} is running in another monchat.",
                                    "Wait for it to finish, then try again.") from None
            time.sleep(0.05)
            continue
        except BaseException:
            os.close(fd)
            raise
        if _is_at(fd, lock):
            break
        os.close(fd)  # its holder removed this file before letting go: lock the one at the path now
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(lock)  # still held: no one else can count a lock on it as theirs
        os.close(fd)


def _open_lock(lock: Path) -> int:
    """The lock file opened (made when missing); never through a link put in its place."""
    try:
        return os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StorageError(f"{lock} is in the way (a link, not the lock file monchat makes there).",
                               "Remove it; monchat needs that name for its restore lock.") from None
        mapped = storage_error(exc, lock)
        if mapped is None:
            raise
        raise mapped from exc


def _is_at(fd: int, path: Path) -> bool:
    """Whether the open file ``fd`` is the file at ``path`` now."""
    try:
        at = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (at.st_dev, at.st_ino) == (mine.st_dev, mine.st_ino)


def recover_interrupted(paths: Paths) -> None:
    """Finish or undo a restore that was killed part-way (see the module docstring); cheap when none was."""
    if not _left_over(paths):
        return
    try:
        with restore_lock(paths, wait_s=2.0):  # another start recovering takes milliseconds
            recover_locked(paths)
    except OSError as exc:
        mapped = storage_error(exc, paths.data_dir)
        if mapped is None:
            raise
        raise mapped from exc


def recover_locked(paths: Paths) -> None:
    """``recover_interrupted`` for a caller that holds the restore lock."""
    for temp in _journal_temps(paths):  # only a lock holder writes the journal: any other one's temp is dead
        if temp.name != f".{_journal(paths).name}.{os.getpid()}.tmp":
            log.info("removing %s, a restore journal's temp file left by one that was stopped", temp)
            temp.unlink()
    journal = _read_journal(paths)
    if journal is not None:
        if not journal.get("done"):
            for target, stage, old in journal["moves"]:
                _move_in(target, stage, old)
            _write_journal(paths, journal["moves"], done=True)
            log.warning("finished a restore into %s that was interrupted", paths.data_dir)
        _remove_olds_and_journal(paths, journal["moves"])
    for target in _targets(paths):
        if not target.parent.is_dir():
            continue
        for stale in stages(target):
            log.info("removing %s, a restore's copy left by one that was stopped", stale)
            remove_tree(stale)
        for old in olds(target):
            if not target.exists() or _empty_folder(target):
                if target.exists():
                    os.rmdir(target)
                os.replace(old, target)
                fsync_folder(target.parent)
                log.warning("put %s back where a restore that was stopped had moved it from", target)
            else:
                log.warning("kept %s beside %s: a restore left it and nothing shows it is a copy", old, target)


def _empty_folder(folder: Path) -> bool:
    return folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir())


def _report_undeleted(_function, path, exc_info) -> None:
    log.warning("could not remove %s: %s", path, exc_info[1])


def remove_tree(root: Path) -> None:
    """``shutil.rmtree``, also for a tree deeper than Python's recursion limit (an older monchat restored
    one): then each level's contents are moved up into ``root`` until it is flat, and removed."""
    try:
        shutil.rmtree(root, onerror=_report_undeleted)
        return
    except RecursionError:
        log.warning("%s is deeper than shutil.rmtree can go; removing it level by level", root)
    while True:
        entries = list(os.scandir(root))
        folders = [e for e in entries if e.is_dir(follow_symlinks=False)]
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False):
                os.unlink(entry.path)
        if not folders:
            break
        for folder in folders:
            for inner in os.scandir(folder.path):
                os.replace(inner.path, os.path.join(root, uuid.uuid4().hex))
            os.rmdir(folder.path)
    os.rmdir(root)


def _checked_moves(paths: Paths, raw) -> list[tuple[Path, Path, Path]]:
    """The journal's moves, each a target of ``paths`` with its own copy and aside names (else ValueError)."""
    moves = []
    for target, stage, old in raw:
        target, stage, old = Path(target), Path(stage), Path(old)
        if (target not in _targets(paths) or stage.parent != target.parent or old.parent != target.parent
                or not stage.name.startswith(f".{target.name}-restore-")
                or not old.name.startswith(f".{target.name}-old-")):
            raise ValueError(f"an unexpected move {target} ← {stage}")
        moves.append((target, stage, old))
    return moves


def _read_journal(paths: Paths) -> dict | None:
    path = _journal(paths)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {"moves": _checked_moves(paths, data["moves"]), "done": bool(data.get("done"))}
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        log.warning("ignored %s, which is not a restore journal monchat wrote (%s)", path, exc)
        path.unlink()
        return None


def _write_journal(paths: Paths, moves: list[tuple[Path, Path, Path]], done: bool) -> None:
    write_private(_journal(paths), json.dumps({"moves": [[str(p) for p in move] for move in moves],
                                               "done": done}))


def _move_in(target: Path, stage: Path, old: Path) -> None:
    """Rename ``target`` aside to ``old`` and ``stage`` into its place; each step skipped when done."""
    if not stage.exists():
        if not target.exists() and old.exists():  # the copy vanished (not by us): the old folder goes back
            move(old, target)
        return  # this folder's copy is in place already
    if target.exists():
        if old.exists():  # something took the folder's place after the kill: only an empty one may go
            if not _empty_folder(target):
                raise StorageError(f"{target} and {old} both hold data after a restore was interrupted.",
                                   f"Look at both, keep the one you want as {target} and move the other away.")
            os.rmdir(target)
        else:
            os.replace(target, old)
            fsync_folder(target.parent)
    move(stage, target)
    os.chmod(target, 0o700)


def move(source: Path, dest: Path) -> None:
    """One durable rename (the kill tests stop the process here)."""
    os.replace(source, dest)
    fsync_folder(dest.parent)


def _remove_olds_and_journal(paths: Paths, moves) -> None:
    for target, _stage, old in moves:
        if old.exists() and target.exists():  # never the only copy
            remove_tree(old)
    if not any(old.exists() for _target, _stage, old in moves):
        _journal(paths).unlink()
        fsync_folder(_journal(paths).parent)


def swap_in(paths: Paths, staged: dict[Path, Path]) -> None:
    """Put each checked copy in ``staged`` (target → copy) in place of its target, journalled.

    The caller holds the restore lock. A failure before the journal is written changes nothing; after
    it, the next start finishes the swap.
    """
    moves = []
    for target, stage in staged.items():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=target.parent))
        os.rmdir(old)
        moves.append((target, stage, old))
    _write_journal(paths, moves, done=False)
    for target, stage, old in moves:
        _move_in(target, stage, old)
    _write_journal(paths, moves, done=True)
    _remove_olds_and_journal(paths, moves)
