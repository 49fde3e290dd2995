"""Downloading a catalog model: asked for by the user only (``monchat models pull``, Settings → Model).

- ``huggingface_hub.hf_hub_download`` fetches the file into ``<models>/<name>/``: it writes to an
  ``.incomplete`` file under ``<name>/.cache/`` and renames it only when whole, so a cancelled or broken
  download is never loaded. A connection that drops is resumed where it stopped (an HTTP Range request,
  within the same pull); a pull that fails or is cancelled deletes its partial file (huggingface_hub 2.x
  keeps none between runs), so the next pull starts over. It honours ``HF_ENDPOINT`` (a mirror; read at
  each pull) and ``HF_HUB_OFFLINE`` (a clear error here, before anything is asked).
- One connection to the server is tried first (not through a proxy): a pull without a network fails at once,
  not after huggingface_hub's five retries (23 s).
- The free disk space is checked before starting (what is left to fetch, plus a margin), and again at each
  block received: a disk that fills meanwhile stops the download (``NoDiskSpace``) before it is full.
- The catalog's size bounds the stream: a server that sends more than it declares (plus ``OVERRUN_BYTES``),
  an endless body or a blob larger than announced, is cut at the block that passes it, before that block is
  written, and the partial file is removed (``DownloadError``). huggingface_hub's own check of the size
  comes only once the stream has ended, after writing all of it.
- The Hugging Face token huggingface_hub sends (``HF_TOKEN``, ``HUGGING_FACE_HUB_TOKEN`` or its token file)
  is read here first and registered with ``core/redact.py``, so a mirror that echoes the request's headers
  in its error does not put it in monchat.log, the error or a crash report.
- The SHA-256 is verified after; a file that does not match is removed, never used, and the error says so.
  Only then ``verified.json`` marks the model installed (``catalog.installed_file``).
- Progress (bytes, speed, time left) goes to a callback, which may cancel by setting ``cancel``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import socket
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..clock import utc_stamp
from ..errors import InputError, KnownError
from ..redact import register
from .catalog import VERIFIED, CatalogModel, installed_file, model_folder

log = logging.getLogger(__name__)

MARGIN_BYTES = 200 * 1024 * 1024  # room left after the download: the database and logs still need to grow
RESERVE_BYTES = MARGIN_BYTES // 2  # during it: what else the disk may lose before the download stops
# The catalog's size is exact (the SHA-256 is checked after), so any byte past it is already a wrong file; the
# margin of one network read only keeps the rule from hanging on how a server frames its last bytes.
OVERRUN_BYTES = 64 * 1024
CONNECT_TIMEOUT_S = 10.0  # the first connection's wait (huggingface_hub waits as long for its first answer)


class DownloadError(KnownError):
    code = "download"


class DownloadCancelled(KnownError):
    code = "download_cancelled"


class NoDiskSpace(KnownError):
    code = "no_disk_space"


@dataclass
class Progress:
    """How far a download is: bytes done of total, speed (bytes/s) and seconds left (None: unknown)."""

    done: int
    total: int
    speed: float = 0.0
    seconds_left: float | None = None
    verifying: bool = False

    def text(self) -> str:
        if self.verifying:
            return f"verifying the checksum ({_size(self.done)} of {_size(self.total)})"
        left = f", {_duration(self.seconds_left)} left" if self.seconds_left is not None else ""
        return f"{_size(self.done)} of {_size(self.total)}, {_size(self.speed)}/s{left}"


def free_bytes(path: Path) -> int:
    """Free space on the disk that holds ``path`` (or its nearest existing folder)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


def pull(model: CatalogModel, models_dir: Path, *, on_progress: Callable[[Progress], None] | None = None,
         cancel: threading.Event | None = None,
         free_space: Callable[[Path], int] = free_bytes) -> Path:
    """Download ``model``, verify its SHA-256 and mark it installed; its path.

    Raises NoDiskSpace, DownloadError (offline, network, wrong checksum) or DownloadCancelled.
    """
    if model.bundled:
        raise InputError(f"{model.name} ships with monchat: there is nothing to download.",
                         f"Select it with `monchat settings set embedded.model_path {model.name}`.")
    if not model.sha256:
        raise DownloadError(f"The catalog has no checksum for {model.name}, so it cannot be verified.",
                            "Download the file yourself and choose it as a .gguf file.")
    done = installed_file(models_dir, model)
    if done is not None:
        return done
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on"):
        raise DownloadError(f"{model.name} cannot be downloaded: HF_HUB_OFFLINE is set (offline mode).",
                            "Unset HF_HUB_OFFLINE and connect to the internet, then pull again.")
    folder = model_folder(models_dir, model)
    needed = model.size_bytes + MARGIN_BYTES
    free = free_space(folder)
    if free < needed:
        raise NoDiskSpace(f"{model.name} needs {_size(needed)} of free disk space; {_size(free)} is free.",
                          f"Free some space on the disk that holds {models_dir}, then pull again.")
    _reachable(model, os.environ.get("HF_ENDPOINT") or None)
    folder.mkdir(parents=True, exist_ok=True)
    path = _fetch(model, folder, on_progress, cancel, _bounds(model, folder, models_dir, free_space))
    _verify(model, folder, path, on_progress)
    return path


def remove(model: CatalogModel, models_dir: Path) -> bool:
    """Delete the model's folder (file, partial download, record); False when there was none."""
    folder = model_folder(models_dir, model)
    if not folder.exists():
        return False
    shutil.rmtree(folder)
    return True


def _bounds(model: CatalogModel, folder: Path, models_dir: Path,
            free_space: Callable[[Path], int]) -> Callable[[int, int], None]:
    """What each block received is checked against: the catalog's size and the free disk space."""
    limit = model.size_bytes + OVERRUN_BYTES

    def check(done: int, adding: int) -> None:
        if done + adding > limit:
            raise DownloadError(f"The server sent more than the {_size(model.size_bytes)} the catalog declares "
                                f"for {model.name}; the download was stopped and its partial file removed.",
                                "The server (or HF_ENDPOINT) serves another file than the catalog names; "
                                "check HF_ENDPOINT, then pull again.")
        left, free = max(0, model.size_bytes - done), free_space(folder)
        if free < left + RESERVE_BYTES:
            raise NoDiskSpace(f"The disk ran short of space while downloading {model.name} ({_size(free)} free, "
                              f"{_size(left)} still to come); the download was stopped and its partial file "
                              "removed.", f"Free some space on the disk that holds {models_dir}, then pull again.")

    return check


def probe_target(url: str) -> tuple[str, int] | None:
    """The host and port a download from ``url`` connects to first; None when a proxy the environment names (or
    a URL without a host) leaves the way to huggingface_hub, whose HTTP client honours the proxy.

    Raises:
        ValueError: ``url`` is no URL (a port out of range, a bracket not closed).
    """
    parts = urllib.parse.urlsplit(url)
    port = parts.port  # a port out of range or not a number: ValueError
    if not parts.hostname:
        return None
    proxies = urllib.request.getproxies()
    if (proxies.get(parts.scheme) or proxies.get("all")) and not urllib.request.proxy_bypass(parts.hostname):
        return None
    return parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _reachable(model: CatalogModel, endpoint: str | None) -> None:
    """Fail at once when the server cannot be reached at all: its name unknown, nothing listening, no route.

    huggingface_hub retries a failed connection five times, 1 + 2 + 4 + 8 + 8 s apart: a pull without a network
    took 23 s to fail, printing "Retrying in 8s" meanwhile. One connection is tried here first."""
    from huggingface_hub import constants
    try:
        target = probe_target(endpoint or constants.ENDPOINT)
    except ValueError as exc:  # huggingface_hub would retry it for 23 s before saying so
        raise DownloadError(f"{model.name} could not be downloaded: {endpoint or constants.ENDPOINT} is not a "
                            f"server's address ({exc}).", "Check HF_ENDPOINT, then pull again.") from exc
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise DownloadError(f"{model.name} could not be downloaded: {target[0]} cannot be reached ({why}).",
                            "Check the internet connection (or HF_ENDPOINT) and pull again.") from exc


def _fetch(model: CatalogModel, folder: Path, on_progress, cancel, check) -> Path:
    from huggingface_hub import errors, get_token, hf_hub_download
    failures = (OSError, ValueError, errors.HfHubHTTPError, errors.LocalEntryNotFoundError,
                errors.OfflineModeIsEnabled, errors.FileMetadataError) + _transport_errors()
    endpoint = os.environ.get("HF_ENDPOINT") or None  # read now: huggingface_hub reads it once, at import
    try:
        register(get_token())  # the token huggingface_hub is about to send: a secret read (core/redact.py)
        return Path(hf_hub_download(model.repo, model.file, revision=model.revision or None, local_dir=folder,
                                    endpoint=endpoint, tqdm_class=_progress_bar(on_progress, cancel, check)))
    except _Cancel as exc:
        _remove_partial(folder)
        raise DownloadCancelled(f"The download of {model.name} was cancelled; nothing was installed.",
                                "Pull it again when you want it.") from exc
    except KnownError:  # stopped by ``check``: too many bytes, too little disk
        _remove_partial(folder)
        raise
    except failures as exc:
        _remove_partial(folder)
        log.warning("download of %s failed: %r", model.name, exc)
        raise DownloadError(f"{model.name} could not be downloaded ({_reason(exc)}).",
                            "Check the internet connection (or HF_ENDPOINT) and pull again.") from exc


def _verify(model: CatalogModel, folder: Path, path: Path, on_progress) -> None:
    digest, done, size = hashlib.sha256(), 0, path.stat().st_size
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(4 * 1024 * 1024), b""):
            digest.update(block)
            done += len(block)
            if on_progress is not None:
                on_progress(Progress(done, size, verifying=True))
    found = digest.hexdigest()
    if found != model.sha256 or size != model.size_bytes:
        path.unlink()
        log.warning("%s: sha256 %s (%s bytes), catalog says %s (%s bytes); removed", model.name, found, size,
                    model.sha256, model.size_bytes)
        raise DownloadError(f"The downloaded {model.name} is not the file the catalog names (its checksum "
                            f"differs); it was removed and will not be used.",
                            "Pull again; if it fails again, the server (or HF_ENDPOINT) serves another file.")
    record = {"sha256": found, "size_bytes": size, "repo": model.repo, "file": model.file,
              "verified_at": utc_stamp()}
    temporary = folder / (VERIFIED + ".tmp")
    temporary.write_text(json.dumps(record, indent=2), encoding="utf-8")
    os.replace(temporary, folder / VERIFIED)


def _remove_partial(folder: Path) -> None:
    """Delete what a stopped download left in ``folder`` (huggingface_hub removes its own; this is sure)."""
    for partial in (folder / ".cache").rglob("*.incomplete"):
        partial.unlink(missing_ok=True)


class _Cancel(Exception):
    """Raised inside huggingface_hub's progress bar to stop a download."""


def _progress_bar(on_progress, cancel, check):
    """A tqdm class huggingface_hub reports to: it forwards progress, stops the download on cancel, and
    checks each block with ``check`` (done so far, this block's bytes) before huggingface_hub writes it."""
    from tqdm import tqdm

    class Bar(tqdm):
        def __init__(self, *args, **kwargs):
            kwargs.pop("name", None)
            kwargs["disable"] = False
            kwargs["file"] = open(os.devnull, "w")  # noqa: SIM115 — closed in close()
            super().__init__(*args, **kwargs)
            self._started, self._first = time.monotonic(), self.n

        def update(self, n=1):
            if cancel is not None and cancel.is_set():
                raise _Cancel()
            if n > 0:
                check(int(self.n), int(n))
            shown = super().update(n)
            if on_progress is not None and self.total:
                elapsed = max(1e-6, time.monotonic() - self._started)
                speed = (self.n - self._first) / elapsed
                left = (self.total - self.n) / speed if speed > 0 else None
                on_progress(Progress(int(self.n), int(self.total), speed, left))
            return shown

        def close(self):
            handle = self.fp
            super().close()
            if handle is not None and not handle.closed:
                handle.close()

    return Bar


def _transport_errors() -> tuple:
    for name in ("httpx2", "httpx"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        return (module.HTTPError,)
    return ()


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _size(count: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{int(count)} B"


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds} s"
