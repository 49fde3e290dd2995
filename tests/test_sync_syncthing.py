"""One history on two computers through real Syncthing (issue 41, Tests): the sync commands end to end.

Two data folders (``MONCHAT_HOME``) A and B, each with its own Syncthing (``tests/support/syncthing.py``: Debian's
``syncthing`` twice on 127.0.0.1) and its own copy of the shared folder, run the issue's interface exactly as a
script would: ``monchat sync setup FOLDER --name NAME``, ``monchat sync``, ``monchat sync status --json``. Chats are
put in with ``monchat import``; each device flushes its own through a loopback Ollama playing the model
(``tests/support/oracle``), a message is deleted, a line of A's journal reaches B torn in half (A "crashed" mid-append),
and a real Syncthing conflict copy of A's journal is made while the two are apart. After each step both sides run ``monchat sync`` until Syncthing says the copies agree (REST, not a
clock), and the two archives are compared. Memory does not travel yet (the decisions replay of issue 41's
point 2-3 is not built; docs/sync.md): its stages come with it.

The fixture runs the story once; each test checks one promise of it. JSON keys of ``sync status`` the issue does
not name are not assumed: the tests look for values (a device id, a name, a file name) anywhere in its answer.
Marked ``slow``: about 70 ``python -m monchat`` runs (33 s of CPU; 105 s on 2 cores at load 8-11) and two Syncthings.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

import pytest

from tests.flush.oracle_server import running_oracle_ollama
from tests.support.oracle import Oracle, Rule
from tests.support.syncthing import CONFLICT_NAME, MISSING, SyncthingPair, installed, running_syncthing_pair

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not installed(), reason=MISSING)]

T = TypeVar("T")
JST = timezone(timedelta(hours=9))
SENDAI, TEA, CURRY = "仙台に住んでいる", "緑茶を飲む", "cooks curry for family"
RULES = [
    Rule("仙台", SENDAI, "home/town", "explicit", 0.9),
    Rule("緑茶", TEA, "drink/daily", "habit", 0.7, persona="lifestyle"),  # three days at 0.7: waits for review
    Rule("curry", CURRY, "food/cooking", "fact", 0.9, persona="lifestyle"),
]
CHAT_A = [  # (days ago, local time, role, text): A's days and B's never overlap, so no diary mixes them
    (6, "08:10", "user", "覚えておいて：仙台に住んでる"),
    (6, "08:11", "assistant", "仙台はいいところだね"),
    (6, "12:30", "user", "昼に緑茶を飲んだ"),
    (5, "12:30", "user", "今日も緑茶を飲んだ"),
    (4, "08:00", "user", "朝から緑茶を飲んでから出かけた"),
    (0, "-20m", "user", "Today on A I walked to the station"),  # "-20m": twenty minutes ago
]
TODAY_A = CHAT_A[-1][3]  # the journal that holds it is the one A writes LATER_A into, by month of writing or saying
CHAT_B = [
    (2, "19:00", "user", "Tonight I cooked curry for my sister"),
    (2, "19:01", "assistant", "Curry sounds great! Was it spicy?"),
    (1, "21:00", "user", "Tomorrow I will visit Kyoto by train"),
]
DELETED = "Tomorrow I will visit Kyoto by train"  # B's, deleted on A
TORN_A = [(0, "-15m", "user", "Half of this line crossed first, then the rest")]  # ASCII: cut at a byte
LATER_A = [(0, "-10m", "user", "Written on A while the two were apart")]
FORGED = "A line B forged into A's journal"  # only ever in the conflict copy: never history


class Device:
    """One data folder, used as a script would: ``python -m monchat`` with its own MONCHAT_HOME."""

    def __init__(self, name: str, home: Path, folder: Path, server, cwd: Path) -> None:
        self.name, self.home, self.folder, self.cwd = name, home, folder, cwd
        self.env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "JST-9", "OLLAMA_HOST": server.url,
                    "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
        for key in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
            self.env.pop(key, None)

    def start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "monchat", *args], env=self.env, cwd=self.cwd,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run(self, *args: str) -> str:
        return _finished(self.start(*args), args)

    def json(self, *args: str):
        return json.loads(self.run(*args, "--json"))

    def chats(self, lines, label: str) -> None:
        self.run("import", str(_history_file(self.cwd / f"{self.name}-{label}.jsonl", lines)))

    def archive(self) -> set[tuple]:
        """Every message, archived or not: (id, ts, role, persona, text)."""
        rows = [json.loads(line) for line in self.run("export", "--jsonl").splitlines() if line.strip()]
        return {(m["id"], m["ts"], m["role"], m.get("persona"), m["text"]) for m in rows}

    def memory(self) -> dict[str, tuple]:
        """Every memory, history included, by what a device decides: not when it was written down here."""
        return {m["id"]: (m["text"], m["slot"], m["kind"], m["state"], m["layer"], m["pinned"],
                          tuple(sorted(m["evidence"])), m["superseded_by"]) for m in self.json("memory", "list", "--all")}

    def status(self) -> dict:
        return self.json("sync", "status")


def _finished(process: subprocess.Popen, args) -> str:
    try:
        out, err = process.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode != 70, f"monchat {' '.join(args)} crashed: {err}"
    assert process.returncode == 0, f"monchat {' '.join(args)} exited {process.returncode}: {err}"
    return out


def _history_file(path: Path, lines) -> Path:
    now = datetime.now(JST).replace(second=0, microsecond=0)
    rows = []
    for days_ago, hhmm, role, text in lines:
        if hhmm.startswith("-"):
            when = now - timedelta(days=days_ago, minutes=int(hhmm[1:-1]))
        else:
            hour, minute = map(int, hhmm.split(":"))
            when = (now - timedelta(days=days_ago)).replace(hour=hour, minute=minute)
        rows.append(json.dumps({"ts": when.isoformat(), "role": role, "text": text}, ensure_ascii=False))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def both(on_a: Callable[[], T], on_b: Callable[[], T]) -> dict[str, T]:
    """Run something on each device at once, as two computers would: {"a": what A gave, "b": what B gave}."""
    with ThreadPoolExecutor(2) as pool:
        done = {"a": pool.submit(on_a), "b": pool.submit(on_b)}
        return {side: future.result() for side, future in done.items()}


def sync_both(a: Device, b: Device) -> None:
    """``monchat sync`` on both at once; each must exit 0."""
    both(lambda: a.run("sync"), lambda: b.run("sync"))


def converge(pair: SyncthingPair, a: Device, b: Device, rounds: int = 1) -> None:
    """Sync, let Syncthing carry the files, sync again: what one wrote is read by the other, and answered."""
    for _ in range(rounds):
        sync_both(a, b)
        pair.wait_synced(timeout=30)
    sync_both(a, b)
    pair.wait_synced(timeout=30)


def strings(value) -> Iterator[str]:
    """Every string in a JSON answer, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def journals(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("monchat/devices/*/journal/*.jsonl") if not CONFLICT_NAME.match(p.name))


def written(said: str) -> tuple[str, str]:
    """How a text may stand in a JSONL line: as it is, or with JSON's ASCII escapes."""
    return said, json.dumps(said)[1:-1]


def journals_holding(folder: Path, said: str) -> list[Path]:
    return [p for p in journals(folder) if any(form in p.read_text(encoding="utf-8") for form in written(said))]


def device_dir_of(folder: Path, said: str) -> Path:
    """The device folder whose journal holds what that device's user said."""
    [found] = {p.parents[1] for p in journals_holding(folder, said)}
    return found


def files_holding(root: Path, text: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and text.encode() in p.read_bytes()]


class Story(dict):
    """What each stage of the story left to check; a stage that failed is kept with its error, and the story goes
    on, so each promise is judged on its own (a test of a failed stage fails with that stage's error)."""

    def __init__(self) -> None:
        super().__init__(times={}, model_calls_in_sync=0)
        self.failed: dict[str, str] = {}

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        began = time.monotonic()
        try:
            yield
        except Exception:  # noqa: BLE001 (kept and re-raised, as a failure, by every test that needs this stage)
            self.failed[name] = traceback.format_exc()
        self["times"][name] = round(time.monotonic() - began, 1)

    def need(self, *names: str) -> None:
        for name in names:
            if name in self.failed:
                pytest.fail(f"the story's stage {name!r} failed:\n{self.failed[name]}", pytrace=False)


@pytest.fixture(scope="module")
def story(tmp_path_factory):
    root = tmp_path_factory.mktemp("sync-syncthing")
    seen = Story()
    with running_oracle_ollama(Oracle(RULES)) as server, running_syncthing_pair(root, ("A", "B")) as pair:
        seen["times"]["syncthing_start"] = round(pair.started_s, 1)
        a = Device("A", root / "home-a", pair.a.folder, server, root)
        b = Device("B", root / "home-b", pair.b.folder, server, root)

        def synced(rounds: int = 1) -> None:
            calls = len(server.requests)
            converge(pair, a, b, rounds)
            seen["model_calls_in_sync"] += len(server.requests) - calls

        def prepare(device: Device, chat) -> None:  # B has a backend too: a sync's model call would be counted
            device.run("settings", "set", "backend.name", "ollama")
            device.run("settings", "set", "ollama.model", "llama3.2")
            device.run("sync", "setup", str(device.folder), "--name", device.name)
            device.chats(chat, "chat")

        both(lambda: prepare(a, CHAT_A), lambda: prepare(b, CHAT_B))
        seen["flush_a"] = a.json("flush", "--seed", "7")

        with seen.stage("first sync"):
            synced()

        with seen.stage("flush on B"):
            calls = len(server.requests)
            seen["flush_b"] = b.json("flush", "--seed", "7")
            seen["b_flush_requests"] = server.requests[calls:]
            synced()
            seen["after_flushes"] = both(lambda: (a.archive(), a.memory()), lambda: (b.archive(), b.memory()))

        with seen.stage("status"):
            seen["status"] = both(a.status, b.status)
            seen["device_dirs"] = {"a": device_dir_of(pair.a.folder, CHAT_A[0][3]).name,
                                   "b": device_dir_of(pair.a.folder, CHAT_B[0][3]).name}

        with seen.stage("deletion on A"):
            [deleted] = [m for m in a.json("search", "Kyoto") if m["text"] == DELETED]
            a.run("message", "delete", deleted["id"], "--yes")
            synced()
            seen["after_deletion"] = {**both(a.archive, b.archive),
                                      "files": [p for where in (a.home, b.home, pair.a.folder, pair.b.folder)
                                                for p in files_holding(where, DELETED)]}

        with seen.stage("torn line"):
            with pair.paused():  # so the line cannot cross whole before it is cut
                a.chats(TORN_A, "torn")
                a.json("flush", "--seed", "7")
                a.run("sync")
                cut, rest = _tear(pair.a.folder, TORN_A[0][3])  # A "crashed" mid-append: half a line
            pair.wait_synced()
            seen["torn_reached_b"] = (pair.b.folder / cut.relative_to(pair.a.folder)).read_bytes()[-1:] != b"\n"
            seen["torn_sync"] = b.run("sync")  # the half line reached B: nothing fails ...
            seen["torn_on_b"] = b.archive()
            with cut.open("ab") as out:  # ... and once the rest arrives the line is read
                out.write(rest)
            pair.wait_synced()
            b.run("sync")
            seen["whole_on_b"] = b.archive()
            synced()
            seen["after_torn"] = both(a.archive, b.archive)

        with seen.stage("conflict copy"):
            device_a = device_dir_of(pair.b.folder, CHAT_A[0][3]).name
            with pair.paused():
                # B writes into A's journal (a second writer: A's data folder copied to another machine, say) ...
                seen["forged_into"] = _forge(pair.b.folder, device_a)
                # ... while A itself writes on (newer, so A's file wins and B's version becomes the conflict copy)
                a.chats(LATER_A, "later")
                a.json("flush", "--seed", "7")
                a.run("sync")
            synced()
            seen["conflict_copies"] = {"a": pair.a.conflict_copies(), "b": pair.b.conflict_copies()}
            seen["after_conflict"] = both(lambda: (a.archive(), a.status()), lambda: (b.archive(), b.status()))

        with seen.stage("nothing to do"):
            seen["final_sync"] = both(lambda: a.run("sync"), lambda: b.run("sync"))
        print("stage times (s):", seen["times"])  # shown with -s: what the story costs
        yield seen


def _tear(folder: Path, said: str) -> tuple[Path, bytes]:
    """Cut the journal line that holds ``said`` in the middle; the file and the bytes cut off."""
    [journal] = journals_holding(folder, said)
    data = journal.read_bytes()
    start = data.rindex(b"\n", 0, data.index(said.encode())) + 1
    middle = start + (data.index(b"\n", start) - start) // 2
    journal.write_bytes(data[:middle])
    return journal, data[middle:]


def _forge(folder: Path, device_dir: str) -> Path:
    """Append to A's journal of today a copy of today's line with other words, an hour old: B's concurrent edit."""
    [journal] = [p for p in journals_holding(folder, TODAY_A) if p.parents[1].name == device_dir]
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    [said] = [line for line in lines if TODAY_A in line]  # ASCII: the same however the line escapes
    with journal.open("a", encoding="utf-8") as out:
        out.write(said.replace(TODAY_A, FORGED))
    an_hour_ago = time.time() - 3600
    os.utime(journal, (an_hour_ago, an_hour_ago))
    return journal.relative_to(folder)


def texts(archive: set[tuple]) -> set[str]:
    return {row[4] for row in archive}


def test_both_archives_hold_every_message_of_both_devices_with_the_same_ids(story):
    story.need("first sync", "flush on B")
    archive_a, _ = story["after_flushes"]["a"]
    archive_b, _ = story["after_flushes"]["b"]
    assert archive_a == archive_b
    assert texts(archive_a) == {line[3] for line in CHAT_A + CHAT_B}


def test_a_flush_on_b_reads_only_what_was_said_on_b(story):
    story.need("first sync", "flush on B")
    filters = [r for r in story["b_flush_requests"]
               if "items" in ((r.get("body") or {}).get("format") or {}).get("properties", {})]
    assert filters  # B's flush read B's messages through the filters ...
    said_on_a = [line[3] for line in CHAT_A]
    for request in filters:  # ... and none of A's again: A's flush already read them into memory
        sent = json.dumps(request, ensure_ascii=False)
        assert not [text for text in said_on_a if text in sent]
    assert story["flush_b"]["messages_archived"] == len(CHAT_B)


def test_sync_status_names_this_device_and_the_other(story):
    story.need("status")
    dirs = story["device_dirs"]
    for me, other, name, other_name in (("a", "b", "A", "B"), ("b", "a", "B", "A")):
        said = set(strings(story["status"][me]))
        assert {dirs[me], name, dirs[other], other_name} <= said, (me, story["status"][me])


def test_a_deletion_on_a_leaves_both_archives_and_every_file_of_both_devices(story):
    story.need("deletion on A")
    after = story["after_deletion"]
    assert DELETED not in texts(after["a"]) and DELETED not in texts(after["b"])
    assert after["a"] == after["b"]
    assert after["files"] == []


def test_a_torn_line_fails_nothing_loses_nothing_and_is_read_once_whole(story):
    story.need("deletion on A", "torn line")
    torn = TORN_A[0][3]
    assert story["torn_reached_b"]  # Syncthing carried the half line to B's copy of A's journal
    assert torn not in texts(story["torn_on_b"])
    assert story["torn_on_b"] == story["after_deletion"]["b"]  # what B held, B still holds
    assert torn in texts(story["whole_on_b"])
    assert story["after_torn"]["a"] == story["after_torn"]["b"]


def test_a_real_conflict_copy_is_reported_on_both_and_never_read(story):
    story.need("conflict copy")
    copies = story["conflict_copies"]
    assert copies["a"] and [p.name for p in copies["a"]] == [p.name for p in copies["b"]], copies
    [copy] = copies["a"]
    assert CONFLICT_NAME.match(copy.name)["stem"] == story["forged_into"].stem
    for me in ("a", "b"):
        archive, status = story["after_conflict"][me]
        assert any(copy.name in said for said in strings(status)), (me, status)
        assert FORGED not in texts(archive)
        assert LATER_A[0][3] in texts(archive)  # A's own words written meanwhile are not lost
    assert story["after_conflict"]["a"][0] == story["after_conflict"]["b"][0]


def test_sync_never_calls_the_model_and_a_sync_with_nothing_to_do_exits_0(story):
    story.need("nothing to do")
    assert story["model_calls_in_sync"] == 0
    assert set(story["final_sync"]) == {"a", "b"}  # both ran to exit 0 (Device.run asserts it)
