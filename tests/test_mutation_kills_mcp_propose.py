"""What another app reads when monchat's MCP server takes or refuses its proposal (issue 44: the mutmut run of
``core/transfer/mcp_server.py`` left ``propose`` and ``_when_free`` unpinned).

A refusal's words are what the other app, and its user, read: each refusal's message and hint are checked word
for word, with its kind (an ``InputError`` is the caller's to fix, a ``FlushRunning`` only asks to wait) and the
access log's entry naming the client and the reason — never the proposal's words. The text's length at both edges,
the slot a proposal gets when it names none, what lands in the review queue (its id's prefix, its reason, who
proposed it), and the wait for another writer: refused at once while a flush runs, after the wait while another
write holds the lock, and taken as soon as that write lets go.
"""

from __future__ import annotations

import threading
import time
from datetime import timezone

import pytest

from monchat.cli import main as cli
from monchat.core.errors import FlushRunning, InputError, KnownError
from monchat.core.paths import held_lock, running_mark
from monchat.core.transfer import mcp_server
from monchat.core.transfer.mcp_server import BUSY, FLUSHING, MemoryPort
from monchat.core.vocabulary.states import Held
from tests.support.memory_seed import seed, seeded_app  # noqa: F401 (seeded_app: the app fixture)

UTC = timezone.utc
CLIENT = "host 1.2"
NOTE = "It waits for the user's review; nothing is remembered unless the user approves it."


@pytest.fixture
def port(app):
    """A port of a client named ``CLIENT``, with proposing allowed."""
    assert cli.main(["settings", "set", "mcp.allow_propose", "true"]) == 0
    port = MemoryPort(app)
    port.client = CLIENT
    return port


def refused(port: MemoryPort, text: str, slot: str = "") -> KnownError:
    with pytest.raises(KnownError) as caught:
        port.propose(text, slot)
    return caught.value


def words(text: str) -> str:
    return " ".join(text.split())


def said(error: KnownError) -> tuple[str, str]:
    """The refusal's message and hint as a reader sees them (line breaks and spacing aside)."""
    return words(error.message), words(error.hint)


def last_entry(port: MemoryPort) -> dict:
    entry = port.log.read()[-1]
    assert entry.pop("at")
    return entry


def proposals(app) -> list:
    return [item for item in app.memory.queue() if item.held == Held.MCP]


def test_proposing_before_the_user_allows_it_is_refused_in_words_that_say_how_to_allow_it(app):
    port = MemoryPort(app)
    port.client = CLIENT
    error = refused(port, "Plays the guitar on Saturdays", "hobby/guitar")
    assert isinstance(error, InputError)
    assert said(error) == ("monchat does not take proposals from other apps: its user has not allowed it.",
                           "The user can allow it in monchat: Settings → Memory, or "
                           "`monchat settings set mcp.allow_propose true`.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused", "what": "proposing is off"}
    assert proposals(app) == []


def test_a_text_of_3_and_of_2000_characters_is_taken_and_one_of_2_or_2001_is_refused(app, port):
    for text in ("ab", "  a \n ", "x" * 2001):
        error = refused(port, text, "hobby/guitar")
        assert isinstance(error, InputError)
        assert said(error) == ("A proposal needs a text of 3 to 2,000 characters.", "Say one thing about the user.")
        assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused",
                                    "what": "a text of 3 to 2,000 characters is needed"}
    assert port.propose("  a \n b ", "hobby/letters")["queued"] is True  # "a b": its spacing is not counted
    assert port.propose("x" * 2000, "hobby/long")["queued"] is True
    assert sorted(item.text for item in proposals(app)) == ["a b", "x" * 2000]


def test_a_proposal_that_names_no_slot_is_filed_under_proposed_mcp(app, port):
    assert port.propose("Plays the guitar on Saturdays")["queued"] is True
    assert port.propose("Runs along the river", "  sport/running  ")["queued"] is True
    slots = {item.text: app.memory.get(item.memory_id).slot for item in proposals(app)}
    assert slots == {"Plays the guitar on Saturdays": "proposed/mcp", "Runs along the river": "sport/running"}


def test_a_slot_that_is_no_slot_is_refused_by_its_own_words_and_the_log_keeps_them_out(app, port):
    error = refused(port, "Plays the guitar on Saturdays", "guitar!!")
    assert isinstance(error, InputError)
    assert said(error) == ("'guitar!!' is not a slot.", "Use subject/attribute in words, e.g. drink/morning.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused", "what": "not a slot"}
    assert proposals(app) == []


def test_a_topic_the_user_keeps_out_of_memory_is_refused_and_the_app_told_not_to_propose_it_again(app, port):
    app.never.add("guitar")
    error = refused(port, "Plays the guitar on Saturdays", "hobby/music")
    assert isinstance(error, InputError)
    assert said(error) == ("monchat's user keeps this topic out of memory.", "Do not propose it again.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused",
                                "what": "the user keeps this topic out of memory"}
    assert proposals(app) == []


def test_a_full_queue_says_how_many_wait_and_when_to_come_back(app, port, monkeypatch):
    monkeypatch.setattr(mcp_server, "MAX_OPEN_PROPOSALS", 2)
    port.propose("Plays the guitar on Saturdays", "hobby/guitar")
    port.propose("Runs along the river", "sport/running")
    error = refused(port, "Reads mysteries before bed", "reading/genre")
    assert isinstance(error, InputError)
    assert said(error) == ("2 proposals from other apps already wait for the user's review.",
                           "Propose again after the user has gone through them.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused",
                                "what": "the review queue is full"}


def test_a_proposal_taken_waits_for_review_named_as_the_apps_and_is_logged_without_its_words(app, port):
    answer = port.propose("Plays the guitar on Saturdays", "hobby/guitar")
    assert answer == {"queued": True, "already_known": False, "note": NOTE}
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory", "what": "", "results": 1}
    [item] = proposals(app)
    assert item.proposers == [CLIENT]
    assert item.memory_id.startswith("mcp-")  # the id memory.md and the review show: an app's, not an import's
    assert words(item.reason) == (f"proposed by {CLIENT} through monchat's MCP server, in its words, not said here: "
                                  "it becomes memory only if you approve it")
    assert port.propose("Plays the guitar on Saturdays", "hobby/guitar") == {"queued": False, "already_known": True,
                                                                            "note": NOTE}
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory", "what": "", "results": 0}


def test_a_running_flush_refuses_a_proposal_at_once(app, port):
    port.wait = 5.0
    with held_lock(app.paths.flush_lock) as held, running_mark(app.paths.flush_running):  # as a flush holds them
        assert held
        started = time.monotonic()
        error = refused(port, "Plays the guitar on Saturdays", "hobby/guitar")
        waited = time.monotonic() - started
    assert isinstance(error, FlushRunning) and waited < 2.0
    assert said(error) == ("monchat is flushing right now.", "Propose again in a few minutes.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused", "what": FLUSHING}
    assert proposals(app) == []


def test_another_write_holding_the_lock_past_the_wait_is_refused_after_the_wait(app, port):
    port.wait = 0.6
    with held_lock(app.paths.flush_lock) as held:  # another host's proposal, an import, a lint
        assert held
        started = time.monotonic()
        error = refused(port, "Plays the guitar on Saturdays", "hobby/guitar")
        waited = time.monotonic() - started
    assert isinstance(error, FlushRunning) and waited >= 0.6
    assert said(error) == ("monchat was busy writing memory for 1 s.", "Propose again in a minute.")
    assert last_entry(port) == {"client": CLIENT, "event": "propose_memory refused", "what": BUSY}
    assert proposals(app) == []


def test_a_proposal_is_written_as_soon_as_the_other_write_lets_go(app, port):
    port.wait = 5.0
    holding, release = threading.Event(), threading.Event()
    released_at: list[float] = []

    def other_write():
        with held_lock(app.paths.flush_lock) as held:
            assert held
            holding.set()
            release.wait(5)
            released_at.append(time.monotonic())

    other = threading.Thread(target=other_write)
    other.start()
    holding.wait(5)
    threading.Timer(0.2, release.set).start()
    got_it_at = port._when_free(CLIENT, time.monotonic)
    other.join()
    assert 0 <= got_it_at - released_at[0] < 0.5  # it looks again every 50 ms, not every second
