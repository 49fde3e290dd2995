"""Embedded model downloads against a loopback Hub (tests/fakes/fake_hub.py) serving the bundled SmolLM2 file.

A test catalog (``MONCHAT_CATALOG``) names that file with its real SHA-256 (``smol``) and with a wrong one
(``smol-wrong``). Covered: a full pull that verifies and selects the model (then chat and flush run on it),
a pull that resumes after the connection drops, a cancel that leaves no file, a wrong checksum refused, too little disk,
offline, and remove.
"""

from __future__ import annotations

import hashlib
import json
import threading

import pytest

from monchat.cli.main import main
from monchat.core.models.catalog import find_model, installed_file, load_catalog
from monchat.core.models.download import DownloadCancelled, DownloadError, NoDiskSpace, probe_target, pull
from tests.fakes.fake_hub import running_fake_hub
from tests.support.gguf_files import bundled_gguf

REPO = "test-org/SmolLM2-GGUF"


@pytest.fixture(scope="module")
def source():
    return bundled_gguf()


@pytest.fixture
def hub(source, tmp_path, monkeypatch):
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    entry = {"name": "smol", "title": "SmolLM2 (test)", "repo": REPO, "file": source.name, "revision": "main",
             "size_bytes": source.stat().st_size, "sha256": digest, "ram_gb": 0.5, "context_length": 8192,
             "parameters": "135M", "languages": ["en"], "japanese": "poor", "licence": "Apache-2.0",
             "purpose": "tests"}
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"models": [entry, dict(entry, name="smol-wrong", sha256="0" * 64)]}))
    monkeypatch.setenv("MONCHAT_CATALOG", str(catalog))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with running_fake_hub(source, REPO, source.name) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def blob_gets(hub) -> list:
    return [r for r in hub.requests if r[0] == "GET" and r[1].startswith("/cdn/")]


def settings(capsys) -> dict:
    capsys.readouterr()
    assert main(["settings", "show"]) == 0
    import tomllib
    return tomllib.loads(capsys.readouterr().out)


def test_pull_downloads_verifies_and_selects(hub, tmp_path, capsys, source):
    assert main(["models", "pull", "smol"]) == 0
    out, err = capsys.readouterr()
    assert "verified (SHA-256) and selected" in out
    assert "MB/s" in err and "left" in err  # progress with speed and time left
    path = installed_file(tmp_path / "home" / "models", find_model("smol"))
    assert path is not None and path.read_bytes() == source.read_bytes()
    assert settings(capsys)["embedded"]["model_path"] == "smol"
    assert main(["models", "list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["smol"]["selected"] and rows["smol"]["installed"] and not rows["smol-wrong"]["installed"]
    assert main(["--backend", "embedded", "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["model"] == "smol"


def test_a_dropped_connection_resumes_with_a_range_request(hub, tmp_path):
    hub.drop_after = 20_000_000
    models = tmp_path / "models"
    path = pull(find_model("smol"), models)
    assert installed_file(models, find_model("smol")) == path
    gets = blob_gets(hub)
    assert len(gets) == 2 and gets[0][2] is None and gets[1][2].startswith("bytes=")
    assert int(gets[1][2][len("bytes="):].rstrip("-")) > 0


def test_a_cancelled_pull_leaves_no_file_and_the_next_one_completes(hub, tmp_path):
    models, model, cancel = tmp_path / "models", find_model("smol"), threading.Event()

    def progress(step):
        if step.done > 30_000_000:
            cancel.set()

    with pytest.raises(DownloadCancelled):
        pull(model, models, on_progress=progress, cancel=cancel)
    assert installed_file(models, model) is None
    assert [p.name for p in (models / "smol").rglob("*") if p.suffix in (".gguf", ".incomplete")] == []
    pull(model, models)
    assert installed_file(models, model) is not None


def test_a_wrong_checksum_is_refused_and_the_file_removed(hub, tmp_path, capsys):
    assert main(["models", "pull", "smol-wrong"]) != 0
    err = capsys.readouterr().err
    assert "checksum differs" in err and "removed" in err
    folder = tmp_path / "home" / "models" / "smol-wrong"
    assert not (folder / find_model("smol-wrong").file).exists() and not (folder / "verified.json").exists()
    assert settings(capsys)["embedded"]["model_path"] == ""  # not selected
    assert main(["--backend", "embedded", "--model", "smol-wrong", "chat", "-m", "hi"]) != 0
    assert "not downloaded yet" in capsys.readouterr().err


def test_too_little_disk_space_stops_before_downloading(hub, tmp_path):
    with pytest.raises(NoDiskSpace, match=r"needs .* of free disk space"):
        pull(find_model("smol"), tmp_path / "models", free_space=lambda path: 50_000_000)
    assert blob_gets(hub) == [] and not (tmp_path / "models" / "smol" / find_model("smol").file).exists()


def test_offline_is_a_clear_error(hub, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main(["models", "pull", "smol"]) != 0
    assert "HF_HUB_OFFLINE" in capsys.readouterr().err
    assert hub.requests == []


def test_no_network_is_a_clear_error_at_once(hub, tmp_path, monkeypatch, capsys):
    # huggingface_hub would retry the refused connection five times, 1 + 2 + 4 + 8 + 8 s apart (23 s), saying
    # "Retrying in 8s": one connection tried first says what is wrong at once.
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens: no network
    with pytest.raises(DownloadError) as caught:
        pull(find_model("smol"), tmp_path / "models")
    assert caught.value.message == "smol could not be downloaded: 127.0.0.1 cannot be reached (Connection refused)."
    assert not (tmp_path / "models" / "smol").exists() and "Retrying" not in capsys.readouterr().err


def test_an_endpoint_with_a_port_out_of_range_is_a_clear_error_not_a_crash(hub, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:99999")
    with pytest.raises(DownloadError) as caught:
        pull(find_model("smol"), tmp_path / "models")
    assert caught.value.message == ("smol could not be downloaded: http://127.0.0.1:99999 is not a server's address "
                                    "(Port out of range 0-65535).")
    assert caught.value.hint == "Check HF_ENDPOINT, then pull again."


def test_the_first_connection_goes_where_the_download_goes(monkeypatch):
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                 "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert probe_target("https://huggingface.co") == ("huggingface.co", 443)
    assert probe_target("http://mirror.example:8080/hf") == ("mirror.example", 8080)
    assert probe_target("http://mirror.example") == ("mirror.example", 80)
    assert probe_target("file:///srv/models") is None
    for not_a_url in ("http://mirror.example:99999", "http://[::1", "http://mirror.example:port"):
        with pytest.raises(ValueError):
            probe_target(not_a_url)
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")  # a proxy carries it: huggingface_hub's way
    assert probe_target("https://huggingface.co") is None
    assert probe_target("http://mirror.example") == ("mirror.example", 80)  # a proxy for https only
    monkeypatch.setenv("ALL_PROXY", "socks5://proxy.example:1080")
    assert probe_target("http://mirror.example") is None
    monkeypatch.setenv("NO_PROXY", "mirror.example")
    assert probe_target("http://mirror.example") == ("mirror.example", 80)


def test_remove_deletes_the_file_and_falls_back_to_the_bundled_model(hub, tmp_path, capsys):
    assert main(["models", "pull", "smol"]) == 0
    assert main(["models", "remove", "smol"]) == 0
    assert "bundled SmolLM2 again" in capsys.readouterr().out
    assert not (tmp_path / "home" / "models" / "smol").exists()
    assert settings(capsys)["embedded"]["model_path"] == ""


def test_the_shipped_catalog_is_complete(monkeypatch):
    monkeypatch.delenv("MONCHAT_CATALOG", raising=False)
    models = load_catalog()
    assert 3 <= len([m for m in models if not m.bundled]) <= 6
    assert any(m.bundled for m in models)
    for model in models:
        assert model.ram_gb > 0 and model.context_length > 0 and model.languages and model.licence
        if not model.bundled:
            assert len(model.sha256) == 64 and model.size_bytes > 100_000_000 and model.repo and model.file
    assert sum("ja" in m.languages for m in models) >= 2


@pytest.mark.slow
def test_chat_and_flush_run_on_the_pulled_model(hub, tmp_path, capsys):
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the test-real extra)")
    assert main(["models", "pull", "smol"]) == 0
    for key, value in (("embedded.max_tokens", "64"), ("background.reflect", "false"),
                       ("background.diary", "false"), ("background.lint_llm", "false")):
        assert main(["settings", "set", key, value]) == 0
    capsys.readouterr()
    assert main(["--backend", "embedded", "chat", "-m", "I grow tomatoes on my balcony."]) == 0
    assert capsys.readouterr().out.strip()
    assert main(["--backend", "embedded", "flush", "--json", "--seed", "7"]) == 0
    flush = json.loads(capsys.readouterr().out)
    assert flush["nothing_to_flush"] is False
    assert main(["--backend", "embedded", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["model"] == "smol" and status["unflushed_files"] == 0
