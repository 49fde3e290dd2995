"""Downloads: what a user reads and relies on around ``core/models/download.py`` (issue 44, mutation testing).

The progress line (sizes, speed, time left, each unit at its edge), the offline switch in each spelling
huggingface_hub takes, the disk asked about when the models folder does not exist yet, removing a model, and
the refusals that come before any connection: a bundled model, a catalog entry without a checksum, a model
already installed. None of these connects anywhere (``HF_ENDPOINT`` points at a closed port).

Against the loopback Hub (tests/fakes/fake_hub.py, a 4 KiB model; written from the mutmut run of ``_verify``,
``_fetch``, ``_progress_bar`` and ``_transport_errors``, 2026-12-05): a file that is not the catalog's removed and
never installed, the record a verified model gets, a pinned revision, a cancel, a server's refusal and its first
line, the token of huggingface_hub's token file registered as a secret, no progress bar printed, the progress's
speed and time left, and the transport errors of the client huggingface_hub uses.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from monchat.core.errors import InputError
from monchat.core.models import download
from monchat.core.models.catalog import VERIFIED, find_model, installed_file
from monchat.core.models.download import DownloadError, Progress, pull, remove

NOWHERE = "http://127.0.0.1:9"  # nothing listens: a connection would fail
PLENTY = 10**12


def catalog(tmp_path: Path, monkeypatch, **fields) -> Path:
    source = tmp_path / "tiny.gguf"
    source.write_bytes(os.urandom(4096))
    entry = {"name": "tiny", "title": "tiny (test)", "repo": "test-org/tiny-GGUF", "file": source.name,
             "revision": "main", "size_bytes": 4096, "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
             "ram_gb": 0.5, "context_length": 8192, "parameters": "1M", "languages": ["en"], "japanese": "poor",
             "licence": "MIT", "purpose": "tests", **fields}
    (tmp_path / "catalog.json").write_text(json.dumps({"models": [entry]}))
    monkeypatch.setenv("MONCHAT_CATALOG", str(tmp_path / "catalog.json"))
    monkeypatch.setenv("HF_ENDPOINT", NOWHERE)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return source


# ---- the progress line -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("count, shown", [
    (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (999_999, "1000.0 kB"), (1_000_000, "1.0 MB"),
    (1_500_000, "1.5 MB"), (999_999_999, "1000.0 MB"), (1_000_000_000, "1.0 GB"), (2_340_000_000, "2.3 GB"),
])
def test_a_size_is_shown_in_the_largest_unit_it_reaches(count, shown):
    assert download._size(count) == shown


@pytest.mark.parametrize("seconds, shown", [
    (0, "0 s"), (59, "59 s"), (59.4, "59 s"), (59.6, "1 min 0 s"), (60, "1 min 0 s"), (61, "1 min 1 s"),
    (3599, "59 min 59 s"), (3600, "1 h 0 min"), (3725, "1 h 2 min"), (7260, "2 h 1 min"),
])
def test_a_time_left_is_shown_in_hours_minutes_or_seconds(seconds, shown):
    assert download._duration(seconds) == shown


def test_the_progress_line_says_done_of_total_speed_and_time_left():
    assert Progress(1_500_000, 3_000_000, 500_000, 3).text() == "1.5 MB of 3.0 MB, 500.0 kB/s, 3 s left"
    assert Progress(1_500_000, 3_000_000, 500_000).text() == "1.5 MB of 3.0 MB, 500.0 kB/s"
    assert Progress(10, 20, 0.0, 0).text() == "10 B of 20 B, 0 B/s, 0 s left"  # zero seconds left is still said


def test_the_checksum_line_says_how_far_it_is():
    assert Progress(1_500_000, 3_000_000, verifying=True).text() == "verifying the checksum (1.5 MB of 3.0 MB)"
    assert Progress(5, 9).verifying is False and Progress(5, 9).seconds_left is None and Progress(5, 9).speed == 0.0


# ---- the reason a failed download gives -------------------------------------------------------------------------------
def test_a_failures_reason_is_its_first_line_cut_at_200_characters():
    assert download._reason(OSError("first line\nsecond line")) == "first line"
    assert download._reason(ValueError("  spaced  \n")) == "spaced"
    long = "x" * 250
    assert download._reason(ValueError(long)) == "x" * 200
    assert download._reason(ValueError("")) == "ValueError"


# ---- offline, in every spelling ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["1", "true", "yes", "on", " TRUE ", "On"])
def test_hf_hub_offline_is_a_clear_error_before_any_connection(tmp_path, monkeypatch, value):
    catalog(tmp_path, monkeypatch)
    monkeypatch.setenv("HF_HUB_OFFLINE", value)
    with pytest.raises(DownloadError, match="HF_HUB_OFFLINE is set") as caught:
        pull(find_model("tiny"), tmp_path / "models", free_space=lambda folder: PLENTY)
    assert caught.value.hint == "Unset HF_HUB_OFFLINE and connect to the internet, then pull again."
    assert not (tmp_path / "models").exists()


@pytest.mark.parametrize("value", ["0", "", "false", "no", "off"])
def test_hf_hub_offline_unset_or_false_downloads(tmp_path, monkeypatch, value):
    from tests.fakes.fake_hub import running_fake_hub
    source = catalog(tmp_path, monkeypatch)
    monkeypatch.setenv("HF_HUB_OFFLINE", value)
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        path = pull(find_model("tiny"), tmp_path / "models", free_space=lambda folder: PLENTY)
    assert path.read_bytes() == source.read_bytes()


# ---- refusals before anything is asked of the network -------------------------------------------------------------
def test_a_bundled_model_is_not_downloaded(tmp_path, monkeypatch):
    catalog(tmp_path, monkeypatch, bundled=True)
    with pytest.raises(InputError) as caught:
        pull(find_model("tiny"), tmp_path / "models", free_space=lambda folder: PLENTY)
    assert caught.value.message == "tiny ships with monchat: there is nothing to download."
    assert caught.value.hint == "Select it with `monchat settings set embedded.model_path tiny`."


def test_a_catalog_entry_without_a_checksum_is_not_downloaded(tmp_path, monkeypatch):
    catalog(tmp_path, monkeypatch, sha256="")
    with pytest.raises(DownloadError) as caught:
        pull(find_model("tiny"), tmp_path / "models", free_space=lambda folder: PLENTY)
    assert caught.value.message == "The catalog has no checksum for tiny, so it cannot be verified."
    assert caught.value.hint == "Download the file yourself and choose it as a .gguf file."
    assert not (tmp_path / "models").exists()


def test_a_model_already_installed_is_returned_without_a_connection(tmp_path, monkeypatch):
    source = catalog(tmp_path, monkeypatch)
    model = find_model("tiny")
    folder = tmp_path / "models" / "tiny"
    folder.mkdir(parents=True)
    shutil.copy(source, folder / source.name)
    (folder / VERIFIED).write_text(json.dumps({"sha256": model.sha256, "size_bytes": 4096, "repo": model.repo,
                                               "file": model.file}))
    assert installed_file(tmp_path / "models", model) is not None
    assert pull(model, tmp_path / "models", free_space=lambda folder: 0) == folder / source.name


def test_too_little_room_names_what_is_needed_and_what_is_free(tmp_path, monkeypatch):
    catalog(tmp_path, monkeypatch)
    with pytest.raises(download.NoDiskSpace) as caught:
        pull(find_model("tiny"), tmp_path / "models", free_space=lambda folder: 1_000)
    assert caught.value.message == "tiny needs 209.7 MB of free disk space; 1.0 kB is free."
    assert caught.value.hint == f"Free some space on the disk that holds {tmp_path / 'models'}, then pull again."


# ---- the disk asked about, and removing a model ---------------------------------------------------------------------
def test_the_free_space_of_a_folder_not_made_yet_is_its_nearest_existing_folders(tmp_path, monkeypatch):
    asked = []
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda path: asked.append(Path(path)) or real(path))
    download.free_bytes(tmp_path / "models" / "tiny" / "deeper")
    assert asked == [tmp_path]
    download.free_bytes(tmp_path)
    assert asked[-1] == tmp_path


def test_remove_deletes_the_models_folder_and_says_whether_there_was_one(tmp_path, monkeypatch):
    catalog(tmp_path, monkeypatch)
    model = find_model("tiny")
    assert remove(model, tmp_path / "models") is False
    (tmp_path / "models" / "tiny" / ".cache").mkdir(parents=True)
    (tmp_path / "models" / "tiny" / ".cache" / "x.incomplete").write_bytes(b"part")
    (tmp_path / "models" / "other").mkdir()
    assert remove(model, tmp_path / "models") is True
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["other"]


def test_a_stopped_download_leaves_no_partial_file(tmp_path):
    cache = tmp_path / "tiny" / ".cache" / "huggingface" / "download"
    cache.mkdir(parents=True)
    (cache / "a.gguf.incomplete").write_bytes(b"part")
    (cache / "a.gguf.lock").write_bytes(b"")
    download._remove_partial(tmp_path / "tiny")
    assert sorted(p.name for p in cache.iterdir()) == ["a.gguf.lock"]


def test_the_checksum_progress_counts_every_byte_once_and_ends_at_the_files_size(tmp_path, monkeypatch):
    source = catalog(tmp_path, monkeypatch)
    big = tmp_path / "tiny" / source.name
    big.parent.mkdir()
    data = os.urandom(4 * 1024 * 1024 + 3)  # one full block of the check and three bytes more
    big.write_bytes(data)
    from dataclasses import replace
    model = replace(find_model("tiny"), size_bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    seen: list[Progress] = []
    download._verify(model, big.parent, big, seen.append)
    assert [(p.done, p.total, p.verifying) for p in seen] == [(4 * 1024 * 1024, len(data), True),
                                                              (len(data), len(data), True)]
    assert json.loads((big.parent / VERIFIED).read_text())["size_bytes"] == len(data)


# ---- each block against the catalog's size and the disk, at the edges ----------------------------------------------
def bounds(tmp_path: Path, monkeypatch, free: int = PLENTY):
    catalog(tmp_path, monkeypatch)
    model = find_model("tiny")  # 4096 bytes
    return model, download._bounds(model, tmp_path / "models" / "tiny", tmp_path / "models", lambda folder: free)


def test_a_stream_may_reach_the_declared_size_plus_the_overrun_and_not_one_byte_more(tmp_path, monkeypatch):
    model, check = bounds(tmp_path, monkeypatch)
    limit = model.size_bytes + download.OVERRUN_BYTES
    check(limit - 1000, 1000)  # exactly at the limit: taken
    check(0, limit)
    with pytest.raises(DownloadError) as caught:
        check(limit - 1000, 1001)
    assert caught.value.message == ("The server sent more than the 4.1 kB the catalog declares for tiny; the "
                                    "download was stopped and its partial file removed.")
    assert caught.value.hint == ("The server (or HF_ENDPOINT) serves another file than the catalog names; "
                                 "check HF_ENDPOINT, then pull again.")


@pytest.mark.parametrize("done, free, stops", [
    (0, 4096 + download.RESERVE_BYTES, False), (0, 4096 + download.RESERVE_BYTES - 1, True),
    (1096, 3000 + download.RESERVE_BYTES, False), (1096, 3000 + download.RESERVE_BYTES - 1, True),
    (4096, download.RESERVE_BYTES, False), (4096, download.RESERVE_BYTES - 1, True),  # the overrun: nothing left
])
def test_each_block_needs_what_is_left_plus_the_reserve(tmp_path, monkeypatch, done, free, stops):
    _model, check = bounds(tmp_path, monkeypatch, free)
    if not stops:
        check(done, 10)
        return
    with pytest.raises(download.NoDiskSpace) as caught:
        check(done, 10)
    left = download._size(4096 - done)
    assert caught.value.message == (f"The disk ran short of space while downloading tiny ({download._size(free)} "
                                    f"free, {left} still to come); the download was stopped and its partial file "
                                    "removed.")
    assert caught.value.hint == f"Free some space on the disk that holds {tmp_path / 'models'}, then pull again."


# ---- a whole pull, against the loopback Hub ----------------------------------------------------------------------------
def test_a_pull_reports_the_download_then_the_checksum_to_its_end(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    source = catalog(tmp_path, monkeypatch)
    seen: list[Progress] = []
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        pull(find_model("tiny"), tmp_path / "models", on_progress=seen.append, free_space=lambda folder: PLENTY)
    assert seen and seen[-1].verifying and (seen[-1].done, seen[-1].total) == (4096, 4096)


def test_a_disk_short_during_a_pull_names_the_models_folder_to_free(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    source = catalog(tmp_path, monkeypatch)
    calls: list[Path] = []

    def disk(folder: Path) -> int:  # room to start, then short of the reserve
        calls.append(folder)
        return PLENTY if len(calls) == 1 else 0

    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(download.NoDiskSpace) as caught:
            pull(find_model("tiny"), tmp_path / "models", free_space=disk)
    assert caught.value.hint == f"Free some space on the disk that holds {tmp_path / 'models'}, then pull again."


# ---- _verify and _fetch (run 2026-12-05): a file that is not the catalog's, a cancel, a refusal, the record kept ---
def hub_pull(tmp_path: Path, monkeypatch, *, revision: str = "main", **knobs):
    """Pull "tiny" from the loopback Hub (its knobs set first); the model, its folder and the Hub."""
    from tests.fakes.fake_hub import running_fake_hub
    source = catalog(tmp_path, monkeypatch, revision=revision)
    model = find_model("tiny")
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name, revision) as hub:
        for name, value in knobs.items():
            setattr(hub, name, value)
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        try:
            return model, pull(model, tmp_path / "models", free_space=lambda folder: PLENTY), hub
        except Exception as exc:  # noqa: BLE001 — handed to the test
            return model, exc, hub


def kept(models: Path) -> list[str]:
    return sorted(str(p.relative_to(models)) for p in models.rglob("*") if p.is_file() and not p.name.endswith(".lock"))


def test_a_downloaded_file_that_is_not_the_catalogs_is_removed_and_never_installed(tmp_path, monkeypatch):
    model, error, _hub = hub_pull(tmp_path, monkeypatch, served=os.urandom(4096))  # the size right, the bytes not
    assert isinstance(error, DownloadError)
    assert error.message == ("The downloaded tiny is not the file the catalog names (its checksum differs); it was "
                             "removed and will not be used.")
    assert error.hint == "Pull again; if it fails again, the server (or HF_ENDPOINT) serves another file."
    assert installed_file(tmp_path / "models", model) is None
    assert not any(name.endswith((".gguf", VERIFIED, ".incomplete")) for name in kept(tmp_path / "models"))


def test_a_file_of_the_right_checksum_but_another_size_than_the_catalogs_is_not_kept(tmp_path, monkeypatch):
    from dataclasses import replace
    source = catalog(tmp_path, monkeypatch)
    folder = tmp_path / "models" / "tiny"
    folder.mkdir(parents=True)
    shutil.copy(source, folder / source.name)
    with pytest.raises(DownloadError, match="not the file the catalog names"):
        download._verify(replace(find_model("tiny"), size_bytes=4097), folder, folder / source.name, None)
    assert list(folder.iterdir()) == []


def test_a_verified_model_is_recorded_with_its_checksum_size_and_source(tmp_path, monkeypatch):
    model, path, _hub = hub_pull(tmp_path, monkeypatch)
    assert path == tmp_path / "models" / "tiny" / model.file
    record = json.loads((path.parent / VERIFIED).read_text(encoding="utf-8"))
    assert record.pop("verified_at") and record == {"sha256": model.sha256, "size_bytes": 4096,
                                                    "repo": "test-org/tiny-GGUF", "file": model.file}
    assert not (path.parent / (VERIFIED + ".tmp")).exists()
    assert installed_file(tmp_path / "models", model) == path


def test_a_model_of_a_pinned_revision_is_fetched_at_that_revision(tmp_path, monkeypatch):
    model, path, hub = hub_pull(tmp_path, monkeypatch, revision="v1.2")
    assert installed_file(tmp_path / "models", model) == path
    assert any("/resolve/v1.2/" in request[1] for request in hub.requests)


def test_a_cancelled_download_says_so_and_leaves_nothing(tmp_path, monkeypatch):
    import threading
    from tests.fakes.fake_hub import running_fake_hub
    source = catalog(tmp_path, monkeypatch)
    model, cancel = find_model("tiny"), threading.Event()
    cancel.set()
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(download.DownloadCancelled) as caught:
            pull(model, tmp_path / "models", cancel=cancel, free_space=lambda folder: PLENTY)
    assert caught.value.message == "The download of tiny was cancelled; nothing was installed."
    assert caught.value.hint == "Pull it again when you want it."
    assert installed_file(tmp_path / "models", model) is None
    assert not any(name.endswith((".gguf", VERIFIED, ".incomplete")) for name in kept(tmp_path / "models"))


def test_a_server_that_refuses_is_a_download_error_with_its_first_line(tmp_path, monkeypatch):
    model, error, _hub = hub_pull(tmp_path, monkeypatch, refuse=(404, "resolve"))
    assert isinstance(error, DownloadError), repr(error)
    cause = error.__cause__
    assert cause is not None and error.message == f"tiny could not be downloaded ({str(cause).strip()[:200]})."
    assert error.hint == "Check the internet connection (or HF_ENDPOINT) and pull again."
    assert installed_file(tmp_path / "models", model) is None


def test_the_hub_token_from_its_file_is_registered_as_a_secret_before_it_is_sent(tmp_path, monkeypatch):
    """``HF_TOKEN`` is on redact's list by name; a token in huggingface_hub's token file is known only once read."""
    import huggingface_hub.constants
    from monchat.core import redact
    token = "hf_killsDownloadsTokenFile" + os.urandom(8).hex()  # new each run: a process forked after an earlier
    # run of this test (mutmut's) must not know it already
    (tmp_path / "token").write_text(token)
    for variable in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "token"))
    _model, error, hub = hub_pull(tmp_path, monkeypatch, refuse=(401, "resolve"))
    assert f"Bearer {token}" in [h.get("authorization") for h in hub.headers]
    assert token in redact.secrets() and token not in str(error)


# ---- _progress_bar: what huggingface_hub's bar would print goes nowhere; the callback gets the numbers ---------------
def test_a_pull_prints_no_progress_bar_of_its_own(tmp_path, monkeypatch, capfd):
    capfd.readouterr()
    model, path, _hub = hub_pull(tmp_path, monkeypatch)
    assert installed_file(tmp_path / "models", model) == path
    assert capfd.readouterr() == ("", "")


def test_the_download_progress_gives_done_of_total_its_speed_and_the_time_left(tmp_path, monkeypatch):
    import math
    import time
    from tests.fakes.fake_hub import running_fake_hub
    data = os.urandom(10 * 2**20 + 4096)  # huggingface_hub hands on 10 MiB at a time: two steps, one mid-way
    source = catalog(tmp_path, monkeypatch, size_bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    source.write_bytes(data)
    seen: list[Progress] = []
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        started = time.monotonic()
        pull(find_model("tiny"), tmp_path / "models", on_progress=seen.append, free_space=lambda folder: PLENTY)
        took = time.monotonic() - started
    fetched = [p for p in seen if not p.verifying]
    assert len(fetched) >= 2 and fetched[-1].done == fetched[-1].total == len(data)
    for step in fetched:
        assert step.speed >= step.done / took  # bytes over the seconds since the bar began, never more seconds
        assert step.seconds_left is not None
        assert math.isclose(step.seconds_left, (len(data) - step.done) / step.speed), (step, len(data))


def test_a_transport_failure_of_huggingface_hubs_client_is_one_a_pull_turns_into_a_download_error():
    """huggingface_hub talks through httpx2 (2.x) or httpx (older): a connection that breaks for good raises that
    client's ``HTTPError`` family, which ``_fetch`` must catch (else a dropped network ends in an internal error)."""
    from huggingface_hub import file_download
    client = getattr(file_download, "httpx2", None) or file_download.httpx
    assert issubclass(client.ReadError, download._transport_errors())
    assert issubclass(client.ConnectError, download._transport_errors())



class Clock:
    """``time`` for ``download`` alone: each reading is 10^8 s after the one before."""

    def __init__(self) -> None:
        self.readings = 0

    def monotonic(self) -> float:
        self.readings += 1
        return (self.readings - 1) * 1e8


def test_a_download_slower_than_a_byte_a_second_still_says_the_time_left(tmp_path, monkeypatch):
    from tests.fakes.fake_hub import running_fake_hub
    data = os.urandom(10 * 2**20 + 4096)
    source = catalog(tmp_path, monkeypatch, size_bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    source.write_bytes(data)
    monkeypatch.setattr(download, "time", Clock())
    seen: list[Progress] = []
    with running_fake_hub(source, "test-org/tiny-GGUF", source.name) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        pull(find_model("tiny"), tmp_path / "models", on_progress=seen.append, free_space=lambda folder: PLENTY)
    first = [p for p in seen if not p.verifying][0]
    assert first.done == 10 * 2**20 and first.speed == pytest.approx(first.done / 1e8)  # 0.1 B/s
    assert first.seconds_left == pytest.approx(4096 / first.speed)
    assert first.text().endswith(", 0 B/s, 10 h 51 min left")
