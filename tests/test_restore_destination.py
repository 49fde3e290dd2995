"""A restored backup never chooses where your words go (issue 36, case 5).

A real backup (``python -m monchat backup``) has its ``config/settings.toml`` planted with ``backend openai`` at
``http://203.0.113.9/v1`` — a public address (TEST-NET-3, which Python's ``ipaddress`` counts as "private").
After ``restore``, ``status`` called it "local" and asked it ``GET /v1/models``, and ``chat -m`` with no terminal
sent the message without asking. Here every command runs as ``python -m monchat`` under an audit hook
(``sys.addaudithook``: no client is patched) that refuses and records any connection or name lookup that is not
this computer's loopback — so no traffic ever leaves this machine, and an attempt is seen, not just its effect.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.errors import CloudConsentNeeded
from monchat.core.privacy.cloud import CloudConsent, Destination, is_local_url

REPO = Path(__file__).resolve().parents[1]
PLANTED = "http://203.0.113.9/v1"
PLANTED_TOML = f'[backend]\nname = "openai"\nmodel = "gpt-x"\n\n[openai]\nbase_url = "{PLANTED}"\n'

# Runs monchat as ``python -m monchat`` would, with a hook that refuses (and writes down) every connection and
# name lookup that is not loopback. The hook raises, so the refused call fails the way an unreachable server does.
GUARDED = r"""
import ipaddress, os, runpy, sys
seen = os.environ["OUTSIDE_SEEN"]
def loopback(host):
    host = str(host).strip("[]").split("%")[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
def hook(event, args):
    host = None
    if event == "socket.connect" and isinstance(args[1], tuple):
        host = args[1][0]
    elif event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else args[0]
    if host is not None and not loopback(host):
        with open(seen, "a", encoding="utf-8") as out:
            out.write(f"{event} {host}\n")
        raise PermissionError(f"test: no connection outside this computer ({host})")
sys.addaudithook(hook)
sys.argv = ["monchat", *sys.argv[1:]]
runpy.run_module("monchat", run_name="__main__", alter_sys=True)
"""


def guarded(home: Path, seen: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, MONCHAT_HOME=str(home), TZ="UTC", OUTSIDE_SEEN=str(seen))
    for name in ("OPENAI_BASE_URL", "OLLAMA_HOST", "OPENAI_API_KEY"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-c", GUARDED, *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=300)


def attempts(seen: Path) -> list[str]:
    return seen.read_text(encoding="utf-8").splitlines() if seen.exists() else []


def plant(backup: Path, planted: Path) -> None:
    """The same backup with its settings.toml replaced (or added): what someone else's hands could do."""
    with zipfile.ZipFile(backup) as src, zipfile.ZipFile(planted, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename != "config/settings.toml":
                out.writestr(info, src.read(info))
        out.writestr("config/settings.toml", PLANTED_TOML)


@pytest.fixture
def restored(tmp_path) -> tuple[Path, Path]:
    """A data folder restored from a planted backup, and the file the guard writes attempts to."""
    seen = tmp_path / "outside.txt"
    source = tmp_path / "source"
    made = guarded(source, seen, "backup", str(tmp_path / "real.zip"))
    assert made.returncode == 0, made.stderr
    plant(tmp_path / "real.zip", tmp_path / "planted.zip")
    home = tmp_path / "restored"
    done = guarded(home, seen, "restore", str(tmp_path / "planted.zip"))
    assert done.returncode == 0, done.stderr  # a settings file is the user's to keep; where it sends is asked
    assert attempts(seen) == []
    return home, seen


def test_status_calls_a_planted_public_address_elsewhere_and_does_not_contact_it(restored):
    home, seen = restored
    done = guarded(home, seen, "status", "--json")
    assert done.returncode == 0, done.stderr
    goes_to = json.loads(done.stdout)["memory_goes_to"]
    assert goes_to["where"] == PLANTED and goes_to["local"] is False
    assert goes_to["contacted"] is False and goes_to["held"] == "not agreed yet"
    assert attempts(seen) == []
    text = guarded(home, seen, "status")
    assert text.returncode == 0, text.stderr
    assert "NOT local" in text.stdout and "not contacted: not agreed yet" in text.stdout
    assert attempts(seen) == []


def test_chat_without_a_terminal_is_held_before_any_connection(restored):
    home, seen = restored
    done = guarded(home, seen, "chat", "-m", "hi")
    assert done.returncode == 2, done.stderr
    assert "203.0.113.9" in done.stderr and "nothing was sent or logged" in done.stderr
    assert attempts(seen) == []
    assert not (home / "logs").exists() or not list((home / "logs").glob("*.jsonl"))


def test_doctor_does_not_contact_a_destination_not_agreed_to(restored):
    home, seen = restored
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(home)  # doctor's machine probe is not this test's point (it loads SmolLM2)
    done = guarded(home, seen, "doctor", "--json")
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    openai = next(s for s in report["sections"] if s.get("backend") == "openai")
    assert any("not contacted: not agreed yet" in c["detail"] for c in openai["checks"])
    assert attempts(seen) == []
    text = guarded(home, seen, "doctor")
    assert "not contacted: not agreed yet" in text.stdout and "Traceback" not in text.stderr
    assert attempts(seen) == []


@pytest.mark.parametrize("url", [
    "http://203.0.113.9/v1", "http://198.51.100.7:8080/v1", "http://192.0.2.1/v1",  # documentation ranges
    "http://198.18.0.5/v1", "http://100.64.1.2/v1", "http://240.0.0.1/v1",  # benchmarking, shared, reserved
    "http://8.8.8.8/v1", "http://[2001:db8::1]/v1", "http://[2606:4700::1111]/v1",
    "http://[::ffff:203.0.113.9]/v1", "http://[64:ff9b::cb00:7109]/v1",  # the same public address, as IPv6
    "http://3405803785/v1", "http://0xcb007109/v1", "http://0313.0.0161.011/v1",  # spellings a resolver reads
    "https://api.openrouter.ai/v1", "http://models.example.com:1234/v1",  # public names
])
def test_a_public_address_or_name_is_never_local(url):
    assert not is_local_url(url)


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:1234/v1", "http://localhost:11434", "http://[::1]:8080", "http://10.0.0.5:1234/v1",
    "http://172.20.1.1/v1", "http://192.168.1.20:11434", "http://169.254.10.1/v1", "http://[fd12::5]/v1",
    "http://[fe80::1%25eth0]:11434", "http://gpu-box:11434", "http://nas.local:1234/v1", "http://pc.lan/v1",
    "http://pc.home.arpa/v1", "http://2130706433:1234/v1",  # 127.0.0.1 as one number: still this computer
])
def test_this_computer_and_your_network_are_local(url):
    assert is_local_url(url)


def test_consent_to_one_openai_compatible_server_does_not_admit_another(tmp_path):
    app = build_app(str(tmp_path / "home"))
    try:
        consent = CloudConsent(app.store)
        agreed = Destination("openai", "gpt-x", "https://openrouter.ai/api/v1", False)
        consent.grant(agreed)
        assert not consent.needed(agreed)
        assert consent.needed(Destination("openai", "gpt-x", PLANTED, False))
        assert consent.needed(Destination("openai", "other", "https://openrouter.ai/api/v1/", False)) is False
    finally:
        app.close()


def test_an_openai_compatible_server_elsewhere_is_refused_at_its_one_door_until_agreed(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.toml").write_text(PLANTED_TOML, encoding="utf-8")
    app = build_app(str(home))
    try:
        backend = app.backends.default()
        with pytest.raises(CloudConsentNeeded) as refused:
            backend.list_models()  # any request: the window's meter, a model list, a background task
        assert "not contacted: not agreed yet" in refused.value.message
        CloudConsent(app.store).grant(app.backends.planned_destination(None))
        backend.hold()  # agreed: the door opens (nothing is asked here)
    finally:
        app.close()


def test_an_ollama_elsewhere_is_not_contacted_by_status_or_pull(tmp_path):
    home, seen = tmp_path / "home", tmp_path / "outside.txt"
    home.mkdir()
    (home / "settings.toml").write_text('[backend]\nname = "ollama"\n\n[ollama]\nhost = "http://198.51.100.7:11434"\n',
                                        encoding="utf-8")
    status = guarded(home, seen, "status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["memory_goes_to"]["held"] == "not agreed yet"
    pull = guarded(home, seen, "pull", "llama3.2")
    assert pull.returncode == 2 and "not contacted: not agreed yet" in pull.stderr, pull.stderr
    assert attempts(seen) == []


@pytest.fixture(scope="module")
def restored_once(tmp_path_factory) -> tuple[Path, Path]:
    """One planted restore for the walk below (its commands hold, so none changes what the next one sees)."""
    tmp = tmp_path_factory.mktemp("walk")
    seen = tmp / "outside.txt"
    assert guarded(tmp / "source", seen, "backup", str(tmp / "real.zip")).returncode == 0
    plant(tmp / "real.zip", tmp / "planted.zip")
    assert guarded(tmp / "home", seen, "restore", str(tmp / "planted.zip")).returncode == 0
    from tests.support.machine_probe import remember_a_probe
    remember_a_probe(tmp / "home")  # doctor's machine probe is not this test's point (it loads SmolLM2)
    return tmp / "home", seen


# Every command that might ask a backend something (a count, a context, a check, a reply): none contacts the
# planted address. A command added later that asks a backend belongs here.
WALK = [("flush",), ("lint",), ("memory", "budget"), ("memory", "list"), ("memory", "queue"), ("search", "hi"),
        ("profile",), ("insights",), ("diary",), ("gaps",), ("skills",), ("inbox",), ("discoveries",), ("graph",),
        ("export", "--jsonl"), ("settings",), ("personas", "list"), ("models", "list"), ("offrecord",),
        ("mcp", "log"), ("status",), ("doctor",), ("chat", "-m", "hi"), ("pull", "llama3.2")]


@pytest.mark.parametrize("command", WALK, ids=" ".join)
def test_no_command_contacts_a_restored_destination_not_agreed_to(restored_once, command):
    home, _ = restored_once
    seen = home.parent / f"outside-{'-'.join(command)}.txt"  # each command's own: one failure names one command
    done = guarded(home, seen, *command)
    assert "Traceback" not in done.stderr and done.returncode != 70, done.stderr
    assert attempts(seen) == [], command


def test_the_automatic_choice_does_not_probe_a_public_address_however_it_is_spelt(tmp_path):
    home, seen = tmp_path / "home", tmp_path / "outside.txt"
    home.mkdir()
    (home / "settings.toml").write_text('[ollama]\nhost = "http://0xcb007109:11434"\n\n'
                                        '[openai]\nbase_url = "http://3405803785/v1"\n', encoding="utf-8")
    done = guarded(home, seen, "status", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["backend"] == "embedded"  # neither was a bare host name on your network
    assert attempts(seen) == []


def test_an_ollama_elsewhere_is_refused_at_its_client_until_agreed(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.toml").write_text('[backend]\nname = "ollama"\n\n[ollama]\nhost = "http://198.51.100.7:11434"\n',
                                        encoding="utf-8")
    app = build_app(str(home))
    try:
        backend = app.backends.default()
        with pytest.raises(CloudConsentNeeded):
            backend.list_models()
        with pytest.raises(CloudConsentNeeded):
            list(backend.stream("", []))
        CloudConsent(app.store).grant(app.backends.planned_destination(None))
        assert callable(backend._client.list)  # agreed: the client is reached (a method looked up; nothing asked)
    finally:
        app.close()
