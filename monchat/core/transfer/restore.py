"""Restore a backup (``core/transfer/backup.py`` writes it) into the data folder: whole and checked, or not at all.

A backup comes from outside, so it is read as hostile until checked, and nothing is written before
the zip's directory has been judged:

- every entry: a name inside ``data/`` or ``config/`` (no ``..``, no absolute path, no control
  character, at most ``MAX_DEPTH`` parts of at most 255 bytes, never twice — case-insensitively —
  never both a file and a folder), never a file a backup leaves out (the database's ``-wal`` or
  ``-journal``, which SQLite would replay over the checked file, locks, monchat.log, crash
  reports), stored or deflated and not encrypted;
- the whole: at most ``MAX_MEMBERS`` entries and ``MAX_TOTAL_BYTES`` unpacked, no large entry
  that unpacks to more than ``MAX_RATIO`` times its packed size, and room on the disk for it;
- the manifest: at most 64 KiB of plain JSON (no NaN, not nested), its fields of the right types.

Then each entry is streamed (never read whole) into a hidden copy beside the folder and its CRC
checked; the database must be exactly what this monchat's migrations make, intact, with the counts
the manifest states (``store/restored.py``); its search indexes pass FTS5's own check or are rebuilt
from the messages they index; consent to a cloud is removed from it (it is asked again on this
machine); the downloaded models of the folder it replaces are linked into the copy (a backup leaves them
out). Only then does ``core/transfer/swap.py`` rename the copies into place. Any refusal is
``InputError`` (exit 2), leaves the folder as it was and removes the copy; no restore (done, refused,
failed) leaves its lock, journal or copy beside the folder (``swap.restore_lock``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .backup import CONFIG_ENTRIES, DB_NAME, FORMAT, LEFT_OUT, MANIFEST, VERSION, skipped_in_backup
from ..errors import InputError, StorageFull, storage_error
from ..paths import Paths, make_private_dir, write_all
from ..privacy.cloud import CONSENT_KEY
from ..store.restored import ForeignDatabase, check_search_indexes, forget_state, verify_restored
from .swap import recover_locked, remove_tree, restore_lock, swap_in

MAX_MEMBERS = 50_000  # 34 years of 6-hour log files, with personas
MAX_DEPTH = 6  # parts of an entry's name: config/personas/surface/x.png has 4
MAX_PART_BYTES = 255  # a file name on most file systems
MAX_TOTAL_BYTES = 32 * 2**30
MAX_RATIO = 200  # deflate packs a database or a log 3–20 times; a zip bomb a thousand
RATIO_FROM_BYTES = 2**20  # a small entry's ratio says nothing
MAX_MANIFEST_BYTES = 64 * 2**10
MAX_COUNT = 10**12
CHUNK = 2**20

log = logging.getLogger(__name__)


@dataclass
class RestoreReport:
    data_dir: Path
    files: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    created_at: str = ""
    replaced: bool = False


def _not_a_backup(path: Path, why: str) -> InputError:
    return InputError(f"{path} is not a usable monchat backup: {why.rstrip('.')}. Nothing was restored.",
                      "Choose a file made by `monchat backup` (or File → Back up…); a damaged copy cannot be used.")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def read_manifest(path: Path, archive: zipfile.ZipFile) -> dict:
    """The manifest, checked for shape (``InputError`` when it is missing, too large or not ours)."""
    try:
        info = archive.getinfo(MANIFEST)
    except KeyError:
        raise _not_a_backup(path, "it has no manifest") from None
    if info.file_size > MAX_MANIFEST_BYTES:
        raise _not_a_backup(path, f"its manifest is {info.file_size} bytes, more than a manifest ever is")
    try:
        with archive.open(info) as member:
            manifest = json.loads(member.read(MAX_MANIFEST_BYTES + 1), parse_constant=_refuse_constant)
    except RecursionError:
        raise _not_a_backup(path, "its manifest is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise _not_a_backup(path, f"its manifest is not plain JSON ({str(exc)[:80]})") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise _not_a_backup(path, f"its manifest is damaged ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _not_a_backup(path, "its manifest is not a monchat backup's")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        shown = repr(version) if isinstance(version, (int, str)) and len(str(version)) < 20 else "unknown"
        raise _not_a_backup(path, f"it is format version {shown}; this monchat reads up to {VERSION}")
    counts = manifest.get("counts", {})
    if not isinstance(manifest.get("created_at", ""), str) or len(manifest.get("created_at", "")) > 64 \
            or not isinstance(counts, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT
                for k, v in counts.items()):
        raise _not_a_backup(path, "its manifest's time or counts are not what a backup writes")
    return manifest


def _entry_problem(name: str, rel: PurePosixPath) -> str:
    """Why a file entry cannot be restored ("" when it can)."""
    if rel.is_absolute() or ".." in rel.parts or "\\" in name or any(ord(c) < 32 for c in name) \
            or len(rel.parts) < 2 or rel.parts[0] not in ("data", "config"):
        return "an unexpected entry"
    if len(rel.parts) > MAX_DEPTH:
        return f"an entry {len(rel.parts)} folders deep (a backup's are at most {MAX_DEPTH})"
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_PART_BYTES for part in rel.parts):
        return "an entry whose name is longer than a file name can be"
    inner = PurePosixPath(*rel.parts[1:])
    if rel.parts[0] == "config":
        ok = (inner.parts == ("settings.toml",)) or (inner.parts[0] == "personas" and len(inner.parts) > 1)
        return "" if ok else "an unexpected entry"
    if inner.parts[0] in CONFIG_ENTRIES or (inner.parts[0] == DB_NAME and len(inner.parts) > 1) \
            or (skipped_in_backup(inner) and inner.parts != (DB_NAME,)):
        return "a file a backup never holds"
    return ""


@dataclass
class _Plan:
    members: list[tuple[zipfile.ZipInfo, str, PurePosixPath]] = field(default_factory=list)  # (entry, root, path)
    total: int = 0


def plan_entries(path: Path, archive: zipfile.ZipFile) -> _Plan:
    """Judge every entry of the zip's directory before anything is written (``InputError`` if one fails)."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS + 1:
        raise _not_a_backup(path, f"it holds {len(infos)} entries (a backup holds at most {MAX_MEMBERS})")
    plan, seen, folders = _Plan(), set[tuple[str, ...]](), set[tuple[str, ...]]()
    for info in infos:
        if info.is_dir():
            continue
        rel = PurePosixPath(info.filename)
        problem = "" if info.filename == MANIFEST else _entry_problem(info.filename, rel)
        if problem:
            raise _not_a_backup(path, f"it holds {problem} ({info.filename[:120]!r})")
        if info.flag_bits & 0x61:  # encrypted, patched data, strong encryption
            raise _not_a_backup(path, f"{info.filename[:120]} is encrypted")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise _not_a_backup(path, f"{info.filename[:120]} is packed with compression method "
                                      f"{info.compress_type} (a backup uses 0 or 8)")
        root = "config" if rel.parts[0] == "config" and len(rel.parts) > 1 else "data"
        key = (root, *(p.casefold() for p in rel.parts[1:])) if info.filename != MANIFEST else (MANIFEST,)
        if key in seen:
            raise _not_a_backup(path, f"it holds {info.filename[:120]!r} twice")
        seen.add(key)
        folders.update(key[:n] for n in range(2, len(key)))
        plan.total += info.file_size
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise _not_a_backup(path, f"{info.filename[:120]} unpacks to {info.file_size} bytes from "
                                      f"{info.compress_size} (more than {MAX_RATIO} times: a zip bomb)")
        if info.filename != MANIFEST:
            plan.members.append((info, root, PurePosixPath(*rel.parts[1:])))
    if seen & folders:
        raise _not_a_backup(path, "it holds a file and a folder of the same name")
    if plan.total > MAX_TOTAL_BYTES:
        raise _not_a_backup(path, f"it unpacks to {plan.total} bytes (at most {MAX_TOTAL_BYTES})")
    return plan


def _unpack(source: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, out: Path) -> None:
    """Stream one entry into ``out`` (its CRC is checked at the end by zipfile)."""
    make_private_dir(out.parent)
    written = 0
    try:
        with archive.open(info) as member:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                while chunk := member.read(CHUNK):
                    written += len(chunk)
                    if written > info.file_size:
                        raise _not_a_backup(source, f"{info.filename[:120]} is larger than its entry says")
                    write_all(fd, chunk)
                os.fsync(fd)
            finally:
                os.close(fd)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise _not_a_backup(source, f"{info.filename[:120]} is damaged ({exc})") from None


def _check_room(source: Path, folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if needed + 2**20 > free:
        raise StorageFull(f"There is no room to restore {source} into {folder}: it unpacks to "
                          f"{needed / 1e6:.1f} MB and {free / 1e6:.1f} MB are free. Nothing was restored.",
                          "Free some disk space, or restore into a folder on another disk (MONCHAT_HOME=…).")


def _is_empty(folder: Path) -> bool:
    return not folder.exists() or not any(folder.iterdir())


def _check_database(source: Path, stage: Path, manifest: dict) -> dict[str, int]:
    """The staged database's counts once it is known to be this monchat's and the manifest's."""
    stated = manifest.get("counts", {})
    db = stage / DB_NAME
    if not db.exists():
        if any(stated.values()):
            raise _not_a_backup(source, f"it has no database though its manifest counts {stated}")
        return {}
    try:  # a database that is not this monchat's, or whose search index cannot be rebuilt: one refusal
        found = verify_restored(db)
        differ = {k: (v, found[k]) for k, v in stated.items() if k in found and found[k] != v}
        if differ or not set(found) <= set(stated):
            raise _not_a_backup(source, f"its database does not hold what its manifest says (manifest {stated}, "
                                        f"database {found})")
        forget_state(db, CONSENT_KEY.format(where=""))
        rebuilt = check_search_indexes(db)
    except ForeignDatabase as exc:
        raise _not_a_backup(source, str(exc)) from None
    if rebuilt:
        log.warning("the search index of %s was damaged (%s) and was rebuilt from its messages",
                    source, ", ".join(rebuilt))
    return found


def _keep_left_out(data_dir: Path, stage: Path) -> None:
    """Hard-link the downloaded models of the folder being replaced into its copy (a backup leaves them out; a
    file an older backup holds wins). Links take no room, and the folder replaced keeps its own until the swap."""
    for name in LEFT_OUT:
        for folder, _dirs, files in os.walk(data_dir / name):  # nothing when there is none
            kept = stage / Path(folder).relative_to(data_dir)
            make_private_dir(kept)
            for file in sorted(files):
                if os.path.lexists(kept / file):
                    continue  # the backup's own copy
                try:
                    os.link(Path(folder, file), kept / file, follow_symlinks=False)  # a link stays a link
                except OSError as exc:  # a file system without links: that model is downloaded again
                    log.warning("could not keep the downloaded model %s: %s", Path(folder, file), exc)


def _restore_error(exc: OSError | sqlite3.Error, source: Path, paths: Paths) -> Exception | None:
    """A disk error while unpacking, worded for the restore (the hidden copy's path means nothing to a user)."""
    mapped = storage_error(exc, paths.data_dir.parent)
    if isinstance(mapped, StorageFull):
        return StorageFull(f"There is no room to restore {source} into {paths.data_dir.parent} (the disk is full or "
                           "a file-size limit was reached). Nothing was restored.",
                           "Free some disk space, or restore into a folder on another disk (MONCHAT_HOME=…).")
    return mapped


def restore_backup(source: Path, paths: Paths, force: bool = False) -> RestoreReport:
    """Restore a backup into ``paths`` (whole or not at all; see the module docstring).

    Raises:
        InputError: not a backup, damaged, not what monchat makes, over a limit, or the folder is not
            empty and ``force`` is False.
        StorageError: the disk has no room for it, or a restore into the folder is running.
    """
    source = Path(source)
    targets = list(dict.fromkeys([paths.data_dir, paths.config_dir]))
    make_private_dir(paths.data_dir.parent)
    with restore_lock(paths):
        recover_locked(paths)
        busy = [t for t in targets if not _is_empty(t)]
        if busy and not force:
            raise InputError(f"{busy[0]} is not empty; restoring would replace what is there.",
                             "Restore into an empty folder (MONCHAT_HOME=…), or add --force to replace it "
                             "(quit monchat first).")
        try:
            archive = zipfile.ZipFile(source)
        except FileNotFoundError:
            raise InputError(f"{source} does not exist.", "Check the path.") from None
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise _not_a_backup(source, f"not a zip file ({exc})") from None
        stages: dict[Path, Path] = {}
        try:
            with archive:
                manifest = read_manifest(source, archive)
                plan = plan_entries(source, archive)
                _check_room(source, paths.data_dir.parent, plan.total)
                for target in targets:
                    make_private_dir(target.parent)
                    stages[target] = Path(tempfile.mkdtemp(prefix=f".{target.name}-restore-", dir=target.parent))
                report = RestoreReport(paths.data_dir, created_at=str(manifest.get("created_at", "")),
                                       replaced=bool(busy))
                roots = {"data": stages[paths.data_dir], "config": stages[paths.config_dir]}
                for info, root, inner in plan.members:
                    _unpack(source, archive, info, roots[root].joinpath(*inner.parts))
                    report.files += 1
                report.counts = _check_database(source, stages[paths.data_dir], manifest)
                _keep_left_out(paths.data_dir, stages[paths.data_dir])
            swap_in(paths, stages)
            stages = {}
        except zipfile.BadZipFile as exc:
            raise _not_a_backup(source, str(exc)) from None
        except (OSError, sqlite3.Error) as exc:
            mapped = _restore_error(exc, source, paths)
            if mapped is None:
                raise
            raise mapped from exc
        finally:
            for stage in stages.values():
                remove_tree(stage)
    return report
