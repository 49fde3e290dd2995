"""A download is bounded by the size the catalog declares, and by the disk, while it runs (issue 36, case 8).

Against the loopback Hub (tests/fakes/fake_hub.py) serving a small random file under a test catalog: a body
without end, a blob larger than it announced, and a disk that fills during the download. Each is stopped at
the block that passes the bound, before that block is written; the partial file is removed, nothing is
installed, and the error says why (exit 1, the download error's code, never 70). Before: an endless body for
a 2 MiB model wrote 1 GiB (the fake's cap) to the ``.incomplete`` file before huggingface_hub refused it.

The bytes on disk are measured by the ``free_space`` collaborator ``pull`` asks at each block: it adds up
the ``.incomplete`` files under the model's folder, so the largest sum it saw is the most ever written.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from monchat.core.models.catalog import find_model, installed_file
from monchat.core.models.download import OVERRUN_BYTES, DownloadError, NoDiskSpace, pull
from tests.fakes.fake_hub import running_fake_hub

REPO = "test-org/tiny-GGUF"
MIB = 1024 * 1024


def make_model(tmp_path: Path, monkeypatch, size: int) -> Path:
    source = tmp_path / f"tiny-{size}.gguf"
    source.write_bytes(os.urandom(size))
    entry = {"name": "tiny", "title": "tiny (test)", "repo": REPO, "file": source.name, "revision": "main",
             "size_bytes": size, "sha256": hashlib.sha256(source.read_bytes()).hexdigest(), "ram_gb": 0.5,
             "context_length": 8192, "parameters": "1M", "languages": ["en"], "japanese": "poor",
             "licence": "MIT", "purpose": "tests"}
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"models": [entry]}))
    monkeypatch.setenv("MONCHAT_CATALOG", str(catalog))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return source


@pytest.fixture
def serve(tmp_path, monkeypatch):
    """serve(size) -> the fake Hub serving a ``size``-byte model named "tiny" in the catalog."""
    stack = []

    def start(size: int):
        source = make_model(tmp_path, monkeypatch, size)
        context = running_fake_hub(source, REPO, source.name)
        hub = context.__enter__()
        stack.append(context)
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        return hub

    yield start
    for context in stack:
        context.__exit__(None, None, None)


class Disk:
    """``free_space`` for ``pull``: plenty, or ``short_after`` bytes written; it records what is on disk."""

    def __init__(self, short_after: int | None = None) -> None:
        self.short_after = short_after
        self.written: list[int] = []

    def __call__(self, folder: Path) -> int:
        on_disk = sum(p.stat().st_size for p in folder.rglob("*.incomplete")) if folder.exists() else 0
        self.written.append(on_disk)
        if self.short_after is not None and on_disk >= self.short_after:
            return 10 * MIB
        return 10**12


def left_behind(models: Path) -> list[str]:
    return sorted(p.name for p in models.rglob("*") if p.is_file() and p.suffix in (".incomplete", ".gguf", ".json"))


@pytest.mark.parametrize("size", [2 * MIB, 25 * MIB])
def test_an_endless_body_is_cut_at_the_declared_size_and_removed(serve, tmp_path, size):
    hub = serve(size)
    hub.endless = True
    models, disk, seen = tmp_path / "models", Disk(), []
    with pytest.raises(DownloadError, match=r"more than the .* the catalog declares"):
        pull(find_model("tiny"), models, free_space=disk, on_progress=lambda step: seen.append(step.done))
    assert max(disk.written) <= size + OVERRUN_BYTES and max(seen, default=0) <= size + OVERRUN_BYTES
    assert left_behind(models) == [] and installed_file(models, find_model("tiny")) is None


def test_a_blob_larger_than_announced_is_cut(serve, tmp_path):
    hub = serve(2 * MIB)
    hub.extra_bytes = 40 * MIB
    models, disk = tmp_path / "models", Disk()
    with pytest.raises(DownloadError, match="the download was stopped and its partial file removed"):
        pull(find_model("tiny"), models, free_space=disk)
    assert max(disk.written) <= 2 * MIB + OVERRUN_BYTES and left_behind(models) == []


def test_a_disk_that_fills_during_the_download_stops_it(serve, tmp_path):
    serve(45 * MIB)
    models, disk = tmp_path / "models", Disk(short_after=10 * MIB)
    with pytest.raises(NoDiskSpace, match="ran short of space while downloading tiny"):
        pull(find_model("tiny"), models, free_space=disk)
    assert 10 * MIB <= max(disk.written) < 45 * MIB  # it started, and stopped at the next block
    assert left_behind(models) == []


def test_a_whole_file_of_the_declared_size_still_installs(serve, tmp_path):
    serve(25 * MIB)
    models = tmp_path / "models"
    path = pull(find_model("tiny"), models, free_space=Disk())
    assert installed_file(models, find_model("tiny")) == path and path.stat().st_size == 25 * MIB


def test_monchat_models_pull_says_so_and_exits_with_the_download_code(serve, tmp_path):
    hub = serve(2 * MIB)
    hub.endless = True
    env = dict(os.environ, TZ="UTC")
    done = subprocess.run([sys.executable, "-m", "monchat", "models", "pull", "tiny"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 1, done.stderr  # DownloadError's exit code; a bug would be 70
    assert "more than the 2.1 MB the catalog declares for tiny" in done.stderr
    assert "Traceback" not in done.stderr
    assert left_behind(tmp_path / "home" / "models") == []
    assert hub.blob_bytes_sent < 64 * MIB  # the connection was closed, not read to the fake's 1 GiB cap
