"""Two real Syncthing instances on 127.0.0.1 sharing one folder: the sync tests' second computer (issue 41).

``running_syncthing_pair(root)`` starts Debian's ``syncthing`` twice, each with its own home (keys, config and
database) under ``root/<name>/home`` and its own copy of the shared folder at ``root/<name>/folder``. Each knows the
other's device ID and dials it at ``tcp://127.0.0.1:<port>``; nothing else is reachable or reached: no global or
local discovery, no relays, no NAT traversal, no usage or crash reports, no upgrades, no browser. The GUI/REST
listens on a free loopback port with a random API key; the folder (``sendreceive``) is watched and rescanned every
few seconds, but the helpers ask for a scan themselves rather than wait for one.

``SyncthingPair.wait_synced()`` asks both REST APIs, not a clock: it returns once both sides are connected, idle,
need nothing, see the other as 100 % complete and hold the same global state, twice in a row; two apart for a while are
told to dial each other (a dropped connection can otherwise wait up to 32 s for its next dial). ``paused()`` pauses the shared
folder on both sides (to make a real conflict copy). The pair is shut down through ``/rest/system/shutdown``; its
process groups are killed if one lingers, so no process outlives the ``with``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

SYNCTHING = "syncthing"
FOLDER_ID = "monchat-sync"
CONFLICT_MARK = ".sync-conflict-"
# How Syncthing names a conflict copy: NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT, DEVICE the first 7 characters
# (base32) of a device ID; seen from the real thing in tests/test_syncthing_harness.py, one kept in tests/data/syncthing.
CONFLICT_NAME = re.compile(r"^(?P<stem>.+)\.sync-conflict-(?P<day>\d{8})-(?P<time>\d{6})-(?P<device>[A-Z2-7]{7})"
                           r"(?P<ext>\.[^.]+)?$")
MISSING = "syncthing is not installed (apt-get install syncthing, or bash scripts/setup as root)"


def installed() -> bool:
    return shutil.which(SYNCTHING) is not None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class SyncthingInstance:
    """One Syncthing: its home, its copy of the shared folder, its ports, key and device ID, its process."""

    name: str
    home: Path
    folder: Path
    gui_port: int = field(default_factory=free_port)
    listen_port: int = field(default_factory=free_port)
    api_key: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    device_id: str = ""
    process: subprocess.Popen | None = None

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.listen_port}"

    def generate(self) -> None:
        """Keys and a certificate (the device ID); the config is written by ``configure``."""
        self.home.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([SYNCTHING, "generate", f"--home={self.home}", "--no-default-folder",
                               "--skip-port-probing"], capture_output=True, text=True, timeout=30, env=_env())
        assert done.returncode == 0, f"syncthing generate: {done.stdout}{done.stderr}"
        self.device_id = [line.split(":", 1)[1].strip() for line in (done.stdout + done.stderr).splitlines()
                          if line.startswith("Device ID:")][0]

    def configure(self, other: SyncthingInstance, rescan_s: int = 5) -> None:
        """Write config.xml: the two devices, the shared folder, loopback only, every outside service off."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / ".stfolder").mkdir(exist_ok=True)  # the folder marker Syncthing checks before it syncs
        devices = "".join(
            f'<device id="{d.device_id}" name="{escape(d.name)}" compression="metadata" introducer="false">'
            f"<address>{d.address}</address><paused>false</paused><autoAcceptFolders>false</autoAcceptFolders>"
            "</device>" for d in (self, other))
        config = f"""<configuration version="36">
    <folder id="{FOLDER_ID}" label="monchat" path="{escape(str(self.folder))}" type="sendreceive"
            rescanIntervalS="{rescan_s}" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false"
            autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="{self.device_id}"></device>
        <device id="{other.device_id}"></device>
        <maxConflicts>10</maxConflicts>
        <markerName>.stfolder</markerName>
    </folder>
    {devices}
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:{self.gui_port}</address>
        <apikey>{self.api_key}</apikey>
    </gui>
    <options>
        <listenAddress>{self.address}</listenAddress>
        <globalAnnounceServer></globalAnnounceServer>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <crashReportingEnabled>false</crashReportingEnabled>
        <stunServer></stunServer>
        <progressUpdateIntervalS>-1</progressUpdateIntervalS>
        <setLowPriority>false</setLowPriority>
    </options>
</configuration>
"""
        (self.home / "config.xml").write_text(config, encoding="utf-8")

    def start(self) -> None:
        log = open(self.home / "syncthing.log", "ab")  # noqa: SIM115 (the process holds it; closed with it)
        try:
            self.process = subprocess.Popen(
                [SYNCTHING, "serve", f"--home={self.home}", "--no-browser", "--no-restart", "--no-upgrade",
                 "--no-default-folder", "--logflags=3"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=_env(), start_new_session=True)
        finally:
            log.close()

    # ---- REST ---------------------------------------------------------------------------------------------

    def rest(self, method: str, path: str, timeout: float = 10.0, body: dict | None = None, **params: str):
        """One REST call (``body`` sent as JSON); the parsed JSON answer (None for an empty one)."""
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.gui_port}{path}{query}", method=method, data=data,
                                         headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read()
        return json.loads(body) if body.strip() else None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_up(self, deadline: float) -> None:
        while True:
            assert self.alive(), f"syncthing {self.name} exited at start: {self.log_tail()}"
            try:
                if self.rest("GET", "/rest/system/ping", timeout=1.0) == {"ping": "pong"}:
                    return
            except (OSError, urllib.error.URLError):
                pass
            _until(deadline, f"syncthing {self.name} answering on its REST port", self)

    def connected_to(self, other: SyncthingInstance) -> bool:
        connections = self.rest("GET", "/rest/system/connections")["connections"]
        return bool(connections.get(other.device_id, {}).get("connected"))

    def set_folder_paused(self, paused: bool) -> None:
        self.rest("PATCH", f"/rest/config/folders/{FOLDER_ID}", body={"paused": paused})

    def dial_now(self, other: SyncthingInstance) -> None:
        """Make this side dial ``other`` at once: 1.19 dials a device the moment it is unpaused in the config.

        A dropped connection asks for a dial too, but that dial can find the old connection not yet gone; the next
        one then waits out the start-up back-off (5, 8, 16, 32 s). Seen in a clean-clone CI run: a folder resumed
        after ``paused()`` got an index update it took for a paused folder's, closed the connection, and the two
        were still apart 15 s later."""
        for paused in (True, False):
            self.rest("PATCH", f"/rest/config/devices/{other.device_id}", body={"paused": paused})

    def scan(self) -> None:
        """Scan the shared folder now (the answer comes when the scan is done)."""
        self.rest("POST", "/rest/db/scan", timeout=30.0, folder=FOLDER_ID)

    def status(self) -> dict:
        return self.rest("GET", "/rest/db/status", folder=FOLDER_ID)

    def completion_of(self, other: SyncthingInstance) -> dict:
        return self.rest("GET", "/rest/db/completion", folder=FOLDER_ID, device=other.device_id)

    def conflict_copies(self) -> list[Path]:
        return sorted(p for p in self.folder.rglob(f"*{CONFLICT_MARK}*") if p.is_file())

    def log_tail(self, lines: int = 30) -> str:
        path = self.home / "syncthing.log"
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Ask it to shut down; kill its process group when it does not within 5 s."""
        if self.process is None:
            return
        if self.alive():
            with contextlib.suppress(OSError, urllib.error.URLError, ValueError):
                self.rest("POST", "/rest/system/shutdown", timeout=2.0)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.process.poll() is None:  # not reaped yet, so its group id is still its own (--no-restart: no child)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=5)


@dataclass
class SyncthingPair:
    """Two instances that share ``FOLDER_ID``; ``a.folder`` and ``b.folder`` are the two copies of it."""

    a: SyncthingInstance
    b: SyncthingInstance
    started_s: float = 0.0  # from generate to both connected: measured once, reported by the tests

    def sides(self) -> tuple[tuple[SyncthingInstance, SyncthingInstance], ...]:
        return (self.a, self.b), (self.b, self.a)

    def wait_connected(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.connected():
            _until(deadline, "the two syncthings connected to each other", self.a, self.b)

    def _view(self) -> tuple | None:
        """What both sides say, when it says they agree; None while they do not (yet)."""
        view = []
        for me, other in self.sides():
            if not me.connected_to(other):
                return None
            status, completion = me.status(), me.completion_of(other)
            if status["state"] != "idle" or status["needTotalItems"] or status.get("pullErrors") \
                    or status.get("errors") or completion["completion"] != 100 or completion["needItems"] \
                    or completion.get("needDeletes"):
                return None
            view.append((status["globalFiles"], status["globalDirectories"], status["globalBytes"],
                         status["localFiles"], status["localDirectories"], status["localBytes"], status["sequence"]))
        if view[0][:6] != view[1][:6]:
            return None
        return tuple(view)

    def connected(self) -> bool:
        return all(me.connected_to(other) for me, other in self.sides())

    def wait_synced(self, timeout: float = 15.0, redial_after_s: float = 2.0) -> None:
        """Scan both copies now, then poll both REST APIs until they agree on the folder, twice in a row. When the
        two have been apart for ``redial_after_s``, both are told to dial the other now (``dial_now``)."""
        deadline = time.monotonic() + timeout
        unscanned = [self.a, self.b]
        last = None
        apart_since = None
        while True:
            if self.connected():
                apart_since = None
            elif apart_since is None:
                apart_since = time.monotonic()
            elif time.monotonic() - apart_since > redial_after_s:
                for me, other in self.sides():
                    me.dial_now(other)
                apart_since = time.monotonic()
            for me in unscanned[:]:
                try:
                    me.scan()
                    unscanned.remove(me)
                except urllib.error.HTTPError:  # a folder just resumed is not running yet: scan it at the next poll
                    pass
            view = None if unscanned else self._view()
            if view is not None and view == last:
                return
            last = view
            _until(deadline, "both syncthings agreeing on the shared folder", self.a, self.b, pause=0.1)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The shared folder paused on both sides: nothing passes while the ``with`` runs; on leaving, both scan
        what changed meanwhile and exchange it. (The devices stay connected: pausing a device instead left the two
        unconnected for 5 s, once for over 15, while Syncthing's dialer waited out its back-off.)"""
        for me in (self.a, self.b):
            me.set_folder_paused(True)
        deadline = time.monotonic() + 15.0
        while any(me.status()["state"] not in ("", "paused") for me in (self.a, self.b)):  # 1.19: "" when paused
            _until(deadline, "the shared folder paused on both sides", self.a, self.b)
        try:
            yield
        finally:
            for me in (self.a, self.b):
                if me.alive():
                    me.set_folder_paused(False)

    def stop(self) -> None:
        for me in (self.a, self.b):
            me.stop()


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ST")}  # no STTRACE, STGUIADDRESS… from outside
    env.update(STHASHING="minio", STNOUPGRADE="1", STNORESTART="1", STNODEFAULTFOLDER="1", GOMAXPROCS="2")
    return env


def _until(deadline: float, what: str, *instances: SyncthingInstance, pause: float = 0.05) -> None:
    """Sleep a poll's pause, or fail with both logs' tails once ``deadline`` has passed."""
    if time.monotonic() > deadline:
        tails = "\n".join(f"--- {i.name} ({'running' if i.alive() else 'exited'}"
                           f"{'' if i.process is None else f', pid {i.process.pid}, code {i.process.poll()}'}) ---\n"
                           f"{i.log_tail()}" for i in instances)
        raise AssertionError(f"timed out waiting for {what}\n{tails}")
    time.sleep(pause)


@contextlib.contextmanager
def running_syncthing_pair(root: Path, names: tuple[str, str] = ("a", "b")) -> Iterator[SyncthingPair]:
    """Two connected Syncthings under ``root`` sharing one folder; both stopped, no process left, at the end."""
    a, b = (SyncthingInstance(name, root / name / "home", root / name / "folder") for name in names)
    pair = SyncthingPair(a, b)
    began = time.monotonic()
    try:
        for me in (a, b):
            me.generate()
        deadline = time.monotonic() + 15.0
        # One after the other: b starts once a listens, so b's first dial finds a. Started together, both first
        # dials could fail, and Syncthing's next dial comes after a back-off that grows to a minute (seen once in
        # a clean-clone CI run: both up, never connected within 15 s).
        for me, other in ((a, b), (b, a)):
            me.configure(other)
            me.start()
            me.wait_up(deadline)
        pair.wait_connected(timeout=60.0)
        pair.started_s = time.monotonic() - began
        yield pair
    finally:
        pair.stop()
