"""One way out (issue 36, point 2): words the user takes back are in no file under the data folder.

The schema walk reads the live schema (``sqlite_master``): every text column must have a rule in
``core/store/scrub.py`` ``TEXT_COLUMNS`` (a table added later fails here until it gets one). Then a unique word
is planted through the public paths that store text — a chat turn (``ChatService.send``), a flush whose oracle
makes it a memory, a flush run's record, a diary page, kept answers, memory.md, ``monchat.log`` — taken back
(Delete message, Edit) and searched for by raw bytes in every file under the data folder, the database's
``-wal`` and ``-shm`` included, while the app still has the database open.
"""

from __future__ import annotations

import io
import json
import logging
import sys
from pathlib import Path

import pytest

from monchat.core.store.scrub import TEXT_COLUMNS, text_columns, unknown_columns
from tests.flush.conftest import Rule, World

WORD = "zqxjvorbelmint"
SECRET = f"My locker code word is {WORD}, please remember it"


def holding(home: Path, word: str) -> list[str]:
    """Every file under ``home`` whose raw bytes hold ``word`` (UTF-8)."""
    needle = word.encode("utf-8")
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and needle in p.read_bytes())


def planted(home: Path) -> World:
    """A world where ``WORD`` is in a chat turn, a memory, a flush run, a diary page and memory.md."""
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.oracle.rules = [Rule(WORD, f"the locker code word is {WORD}", "secret/locker", "explicit"),
                          Rule("green tea", "likes green tea", "drink/tea", "preference")]
    world.app.chat.send(SECRET)
    world.say("2026-11-23T21:02:00+09:00", "I like green tea")
    logging.getLogger("monchat.test").warning("the user said: %s", SECRET)  # as a careless log line would
    from monchat.core.transfer.mcp_server import access_log
    log = access_log(world.app.paths)  # a line as an older monchat logged it, before it kept only fixed words
    log.path.parent.mkdir(parents=True, exist_ok=True)
    with log.path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"at": "2026-11-23T21:03:00+09:00", "client": "a client", "event": "search_history",
                              "what": SECRET}, ensure_ascii=False) + "\n")
    world.flush("2026-11-23T22:00:00+09:00")
    return world


def test_every_text_column_of_the_live_schema_has_a_rule(home):
    world = World(home)
    assert unknown_columns(world.app.store) == []
    assert set(text_columns(world.app.store)) <= set(TEXT_COLUMNS)


def test_the_walk_fails_on_a_table_nobody_decided_about(home):
    world = World(home)
    world.app.store.db.execute("CREATE TABLE notes_from_the_future (id INTEGER PRIMARY KEY, said TEXT)")
    assert unknown_columns(world.app.store) == ["notes_from_the_future.said"]


@pytest.fixture
def file_log(home):
    """``monchat.log`` as the app sets it up, so a line quoting the words is in a file too."""
    home.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(home / "monchat.log", encoding="utf-8")
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
    handler.close()


def test_delete_message_leaves_the_word_in_no_file(home, file_log):
    world = planted(home)
    assert world.oracle.diary_calls
    before = holding(home, WORD)

    assert "monchat.db" in " ".join(before) and {"monchat.log", "mcp-access.jsonl", "memory.md"} <= set(before)
    assert any(WORD in r["changes"] for r in world.rows("flush_runs") if r["changes"])
    user = next(m for m in world.app.archive.all() if m.text == SECRET)
    world.app.messages.delete(user.id)
    assert holding(home, WORD) == []
    logging.getLogger("monchat.test").warning("still logging after the rewrite")
    file_log.flush()
    assert "still logging" in (home / "monchat.log").read_text(encoding="utf-8")


def test_edit_leaves_the_old_word_in_no_file(home, file_log):
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.app.chat.send(SECRET)
    assert holding(home, WORD)
    world.app.chat.edit_last("I like green tea")
    assert holding(home, WORD) == []
    assert [m.text for m in world.app.chat.window() if m.role == "user"] == ["I like green tea"]


def test_edit_after_a_flush_leaves_the_old_word_in_no_file(home, file_log):
    world = planted(home)
    world.clock.now = world.clock.now.replace(minute=30)
    window = [m.text for m in world.app.chat.window() if m.role == "user"]
    assert window[-1] == "I like green tea"
    world.app.chat.edit_last("I like black tea")  # the last one: the secret stays until it is deleted
    assert holding(home, WORD)
    user = next(m for m in world.app.archive.all() if m.text == SECRET)
    world.app.messages.delete(user.id)
    assert holding(home, WORD) == []


def test_a_memory_that_rests_on_other_lines_too_keeps_living_and_its_run_record_loses_the_line(home):
    """The run's ``changes`` quote each evidence line: the deleted one is scrubbed there, the memory lives on."""
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.oracle.rules = [Rule("bike", "has a bike", "things/bike", "explicit")]
    first = world.say("2026-11-23T21:00:00+09:00", f"I ride my bike to {WORD} every morning")
    world.say("2026-11-23T21:01:00+09:00", "My bike is blue")
    world.flush("2026-11-23T22:00:00+09:00")
    assert any(WORD in (r["changes"] or "") for r in world.rows("flush_runs"))
    world.app.messages.delete(first)
    assert world.has("has a bike")
    assert holding(home, WORD) == []


def test_a_deleted_memory_is_out_of_the_log_file_and_the_wal(home, file_log):
    world = World(home, start="2026-11-23T21:00:00+09:00")
    """The memory's own wording (not the message's, which stays in the archive: ``monchat memory delete``)."""
    world.oracle.rules = [Rule("bike", f"rides a bike called {WORD}", "things/bike", "explicit")]
    world.say("2026-11-23T21:00:00+09:00", f"I ride a bike called {WORD} every morning")
    world.flush("2026-11-23T22:00:00+09:00")
    memory = world.mem(f"rides a bike called {WORD}")
    logging.getLogger("monchat.test").warning("memory: %s", memory.text)
    assert {"monchat.log", "memory.md"} <= set(holding(home, memory.text))
    world.app.memory.delete(memory.id)
    assert holding(home, memory.text) == []


def test_off_the_record_clear_and_expiry_take_the_words_out_of_monchat_log(home, file_log):
    world = World(home, start="2026-11-23T21:00:00+09:00")
    chat = world.app.chat
    chat.set_off_record(None, True)
    chat.send(SECRET)
    logging.getLogger("monchat.test").warning("the user said: %s", SECRET)
    assert "monchat.log" in holding(home, WORD)
    assert world.app.logbook.off_record.clear() >= 1
    assert holding(home, WORD) == []
    chat.send(SECRET)
    logging.getLogger("monchat.test").warning("the user said: %s", SECRET)
    world.clock.now = world.clock.now.replace(day=25)
    chat.window()  # expires what is older than off_record.hours
    assert holding(home, WORD) == []


def test_a_short_text_is_taken_out_only_where_it_is_a_whole_value_and_never_from_a_json_key(home):
    """Deleting the message "ok" must not turn "tokens" into "t[deleted]ens" (nor break a record's JSON)."""
    from monchat.core.store.scrub import WordScrub
    store = World(home).app.store
    store.set_state("probe", json.dumps({"tokens": 3, "said": "ok", "note": "look", "lines": ["ok", "okay"]}))
    store.set_state("prose", f"the user said {SECRET} at nine")
    with store.atomic():
        WordScrub(store).scrub(["ok", SECRET])
    assert json.loads(store.get_state("probe")) == {"tokens": 3, "said": "[deleted]", "note": "look",
                                                    "lines": ["[deleted]", "okay"]}
    assert store.get_state("prose") == "the user said [deleted] at nine"


def test_python_m_monchat_chat_flush_and_message_delete_leave_the_word_in_no_file(tmp_path):
    """Through the entry point a user runs: ``chat -m`` and ``flush`` against a loopback Ollama (the real
    ``ollama`` client; the oracle answers the flush's calls), ``search``, ``message delete --yes --json`` —
    then every file under the data folder, by raw bytes (``/edit`` in ``monchat chat``: tests/test_take_back_cli.py)."""
    import os
    import subprocess
    import sys

    from tests.flush.oracle_server import running_oracle_ollama
    from tests.support.oracle import Oracle

    home = tmp_path / "home"
    rules = [Rule(WORD, f"the locker code word is {WORD}", "secret/locker", "explicit", 0.9),
             Rule("green tea", "likes green tea", "drink/tea", "preference", 0.9)]
    with running_oracle_ollama(Oracle(rules)) as server:
        env = {**os.environ, "MONCHAT_HOME": str(home), "OLLAMA_HOST": server.url,
               "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
               "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                              os.environ.get("PYTHONPATH", "")])}
        for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
            env.pop(name, None)

        def monchat(*args: str) -> str:
            done = subprocess.run([sys.executable, "-m", "monchat", *args], env=env, capture_output=True,
                                  text=True, timeout=180)
            assert done.returncode == 0, f"monchat {' '.join(args)}: {done.stderr}"
            return done.stdout

        monchat("settings", "set", "backend.name", "ollama")
        monchat("settings", "set", "ollama.model", "llama3.2")
        monchat("chat", "-m", SECRET)
        monchat("chat", "-m", "I like green tea")
        monchat("--verbose", "flush", "--seed", "7")
        assert any("monchat.db" in name for name in holding(home, WORD))
        assert f"the locker code word is {WORD}" in monchat("memory", "list")
        [hit] = [h for h in json.loads(monchat("search", WORD, "--json")) if h["text"] == SECRET]
        done = json.loads(monchat("message", "delete", hit["id"], "--yes", "--json"))
        assert done["archived"] == 1 and done["memories_deleted"]
        assert holding(home, WORD) == []
        assert "likes green tea" in monchat("memory", "list")
        assert server.errors == []


def test_a_backup_made_after_the_deletion_holds_no_word(home, tmp_path):
    """Measured case 3: a backup made after ``message delete`` carried the words (``flush_runs.changes``)."""
    import zipfile

    from monchat.core.transfer.backup import create_backup
    world = planted(home)
    user = next(m for m in world.app.archive.all() if m.text == SECRET)
    world.app.messages.delete(user.id)
    dest = create_backup(world.app.paths, tmp_path / "after.zip").path
    with zipfile.ZipFile(dest) as archive:
        holders = [name for name in archive.namelist() if WORD.encode() in archive.read(name)]
    assert holders == []


def test_the_cli_question_and_its_answer_say_backups_made_before_still_hold_the_words(home, monkeypatch, capsys):
    from monchat.cli import main as cli
    world = World(home, start="2026-11-23T21:00:00+09:00")
    said = world.say("2026-11-23T21:00:00+09:00", SECRET)
    world.app.close()

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert cli.main(["message", "delete", said]) == 0
    out = capsys.readouterr().out
    assert out.count("Backups you made before now still hold these words.") == 2  # asked, then done


def test_an_edit_while_a_flush_runs_keeps_the_old_words_marked_replaced_until_delete(home):
    """The flush may be reading the old message: it stays, read by no filter (taken back), until Delete."""
    from monchat.core.paths import held_lock
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.app.chat.send(SECRET)
    with held_lock(world.app.paths.flush_lock) as held:  # as a flush in another process holds it
        assert held
        world.app.chat.edit_last("I like green tea")
    old = next(m for m in world.app.logbook.read_all().messages if m.text == SECRET)
    assert holding(home, WORD) and old.id in {m.replaces for m in world.app.logbook.read_all().messages}
    world.app.messages.delete(old.id)
    assert holding(home, WORD) == []


def test_an_edit_after_a_regeneration_takes_back_every_reply_of_the_chain(home):
    """Taking back only the last reply would bring the one it regenerated away back into the window."""
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.app.chat.send(SECRET)
    world.app.chat.regenerate()
    world.app.chat.edit_last("I like green tea")
    window = world.app.chat.window()
    assert [m.role for m in window] == ["user", "assistant"] and window[0].text == "I like green tea"
    assert len(world.app.logbook.read_all().messages) == 2 and holding(home, WORD) == []


def test_an_edit_whose_take_back_the_disk_refuses_still_answers_and_delete_finishes_later(home, caplog):
    from monchat.core.errors import StorageError
    world = World(home, start="2026-11-23T21:00:00+09:00")
    world.app.chat.send(SECRET)

    def refused(ids: list[str]) -> None:
        raise StorageError("The disk is full.", "Free some space.")
    world.app.chat.take_back = refused
    result = world.app.chat.edit_last("I like green tea")
    assert result.reply is not None and "still on disk" in caplog.text
    old = next(m for m in world.app.logbook.read_all().messages if m.text == SECRET)
    world.app.messages.delete(old.id)
    assert holding(home, WORD) == []
