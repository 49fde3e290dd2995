"""Memory import: what a user relies on that the mutmut run of ``core/transfer/memory_import.py`` found unpinned.

Each test was seen failing with the mutant it names in ``docs/testing.md`` ("Mutation testing per guarantee
module", issue 44): an imported memory's id the same in every version (else a memory the user rejected comes
back from the same file), the confidence a file gives carried to the review (each side of 0 and 1), what the
queued memory records (its time, its source, its score), each memory counted once, a short sentence that does not
end its paragraph, and the words of each refusal. And a bug the run led to: a pasted list on standard input
holding bytes that are not UTF-8 ended in an internal error (exit 70) instead of saying so (exit 2).
"""

from __future__ import annotations

import io
from datetime import datetime, timezone
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.transfer.memory_import import (
    MAX_BYTES, Proposal, _confidence, import_memory, parse, pasted_items, proposal_id, queue_proposals, read_text)
from tests.test_memory_import_edges import export, memory, numbered, said

UTC = timezone.utc
NOW = datetime(2026, 12, 5, 3, 0, tzinfo=UTC)
STAMP = "2026-12-05T03:00:00.000+00:00"


@pytest.fixture
def fresh(tmp_path):
    app = build_app(str(tmp_path / "home"), tz=UTC, clock=lambda: NOW)
    yield app
    app.close()


def queued(app) -> list[tuple]:
    """(review item, its memory) of each item waiting for review."""
    return [(item, app.memory.memories.get(item.memory_id)) for item in app.memory.queue()]


# ---- an imported memory's id: the same words give the same id in every version ---------------------------------
def test_an_imported_memorys_id_is_its_slot_kind_and_folded_words_and_never_changes():
    """A user who rejected an imported memory imports the same file again after an update: the id is how the
    rejected one is known (its words are no live memory). These are the ids of 2026-12: changing them brings
    every rejected memory of an earlier import back into the review queue."""
    assert proposal_id("imp", Proposal("Likes  Barley tea", "imported/pasted")) == "imp-8b3bbab0dcce"
    assert proposal_id("imp", Proposal("ｌｉｋｅｓ barley\tTEA ", "imported/pasted")) == "imp-8b3bbab0dcce"
    assert proposal_id("imp", Proposal("Likes natto", "food/likes")) == "imp-3228577be70f"
    assert proposal_id("imp", Proposal("Likes natto", "food/dislikes")) != "imp-3228577be70f"
    assert proposal_id("imp", Proposal("Likes natto", "food/likes", "inferred")) != "imp-3228577be70f"
    assert proposal_id("imp", Proposal("Likes nattō", "food/likes")) != "imp-3228577be70f"


def test_an_imported_memory_is_queued_under_that_id(fresh):
    import_memory(fresh, text="- Likes  Barley tea")
    (item, record), = queued(fresh)
    assert item.memory_id == record.id == "imp-8b3bbab0dcce"


# ---- the confidence a file gives: carried to the review as it says, when it is a number in 0..1 -----------------
@pytest.mark.parametrize("value, read", [
    (0, 0.0), (0.0, 0.0), (0.25, 0.25), (1, 1.0), (1.0, 1.0),  # inside, both ends included
    (-0.01, None), (1.01, None), (2, None), (-1, None),  # outside, each side
    (True, None), (False, None), ("0.5", None), (None, None), ([0.5], None)])  # no number
def test_a_files_confidence_is_read_when_it_is_a_number_from_0_to_1(value, read):
    assert _confidence(value) == read and type(_confidence(value)) is type(read)


def test_an_exports_confidence_goes_to_the_review_and_the_queued_memory(fresh):
    import_memory(fresh, text=export(memory("Likes natto", "active", confidence=0.9),
                                     memory("Likes umeboshi", "active", confidence=1.5),
                                     memory("Likes miso", "active")))
    got = {item.text: (item.confidence, record.confidence, record.score) for item, record in queued(fresh)}
    assert got == {"Likes natto": (0.9, 0.9, 0.9),  # as the file says
                   "Likes umeboshi": (None, 0.0, 0.0),  # no confidence: the review says none, the memory 0
                   "Likes miso": (None, 0.0, 0.0)}


def test_a_pasted_memory_has_no_confidence(fresh):
    import_memory(fresh, text="- Likes barley tea")
    (item, record), = queued(fresh)
    assert (item.confidence, record.confidence, record.score) == (None, 0.0, 0.0)


# ---- what the queued memory records ------------------------------------------------------------------------------
@pytest.mark.parametrize("source, proposer", [("chatgpt", "ChatGPT"), ("claude", "Claude"), ("pasted", "pasted list")])
def test_a_queued_memory_is_from_its_source_and_made_at_the_import(fresh, source, proposer):
    report = import_memory(fresh, text="- Likes barley tea\n- [2026-03-01] Lives in Sendai", source=source)
    by_text = {record.text: record for _item, record in queued(fresh)}
    assert {r.persona for r in by_text.values()} == {proposer}
    assert {(r.created_at, r.updated_at) for r in by_text.values()} == {(STAMP, STAMP)}
    assert by_text["Likes barley tea"].valid_at == STAMP  # no date in the list: it holds from now
    assert by_text["Lives in Sendai"].valid_at == "2026-03-01T00:00:00.000+00:00"
    assert sorted(report.queue_ids) == sorted(item.id for item in fresh.memory.queue())
    assert len(report.queue_ids) == 2 and all(isinstance(n, int) for n in report.queue_ids)


@pytest.mark.parametrize("length", [39, 40, 41, 60])
def test_the_proposers_name_is_kept_to_40_characters(fresh, length):
    """Another app's name (the MCP path) is the memory's persona, cut to 40 characters; the review lists it whole."""
    name = "p" * length
    queue_proposals(fresh.memory, [Proposal("Likes barley tea", "imported/mcp")], held="mcp", proposer=name,
                    reason="proposed by another app")
    (item, record), = queued(fresh)
    assert record.persona == "p" * min(length, 40) and item.proposers == [name]
    assert record.id.startswith("imp-")  # the same ids as a file's, so the same words meet as known


def test_the_same_words_in_two_slots_of_one_file_are_one_memory(fresh):
    report = import_memory(fresh, text=export(memory("Likes natto", "active"),
                                              memory("likes  NATTO", "active", slot="food/breakfast")))
    assert (report.read, report.queued, report.already_known) == (2, 1, 1)
    assert [item.text for item in fresh.memory.queue()] == ["Likes natto"]


def test_every_history_memory_of_an_export_is_counted_as_left_out(fresh):
    report = import_memory(fresh, text=export(memory("Likes natto", "rejected"), memory("Likes miso", "forgotten"),
                                              memory("Likes tofu", "superseded"), memory("Likes umeboshi", "active")))
    assert (report.left_out, report.queued) == (3, 1)


# ---- a pasted list --------------------------------------------------------------------------------------------
def test_a_short_sentence_inside_a_long_paragraph_leaves_the_rest_of_it_read():
    words = "I like to walk along the river every morning before work and stop for coffee on the way back home."
    line = words + " 42. " + words.replace("river", "sea") + " Lives in Sendai with two cats."  # "42.": no memory
    assert len(line) > 200
    assert [text for text, _ in pasted_items(line)] == [words, words.replace("river", "sea"),
                                                         "Lives in Sendai with two cats."]


def test_a_list_over_the_limit_says_how_to_import_it():
    with pytest.raises(InputError) as caught:
        pasted_items(numbered(5001))
    assert caught.value.message == "The list has 5001 memories; at most 5000 are read at once."
    assert caught.value.hint == "Split the list and import the parts one after another."


# ---- the words of a refusal ----------------------------------------------------------------------------------
def test_a_memory_whose_words_are_not_unicode_is_named_by_its_field():
    with pytest.raises(InputError) as caught:
        parse(export(memory("Likes \ud800 natto", "active")))
    assert caught.value.message == ("Memory 1 of the export cannot be read (text holds characters that are not valid "
                                    "Unicode (a lone surrogate)); nothing was imported.")


def test_a_quoted_line_without_a_time_is_kept_without_one(fresh):
    line = said("user", "moved to Kanazawa")
    del line["ts"]
    import_memory(fresh, text=export(memory("Lives in Kanazawa", "active", evidence=[line, said("user", "x y", ts=5)])))
    quoted = fresh.transfer.quoted(fresh.memory.queue()[0].memory_id)
    assert [(q["text"], q["said_at"]) for q in quoted] == [("moved to Kanazawa", None), ("x y", None)]


# ---- standard input: bytes, judged as a file's are (the bug: exit 70) -----------------------------------------------
class Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def test_standard_input_that_is_not_utf8_is_refused_as_a_file_is(monkeypatch):
    monkeypatch.setattr("sys.stdin", Stdin("- café au lait".encode("latin-1")))
    with pytest.raises(InputError) as caught:
        read_text(Path("-"))
    assert (caught.value.message, caught.value.hint) == (
        "The standard input is not UTF-8 text.", "Save the list as UTF-8 text and import it again.")


def test_standard_input_is_read_as_utf8_without_its_byte_order_mark(monkeypatch):
    monkeypatch.setattr("sys.stdin", Stdin(b"\xef\xbb\xbf- Likes barley tea\n"))
    assert read_text(Path("-")) == "- Likes barley tea\n"


def test_standard_input_of_the_size_limit_is_read_and_one_byte_more_is_refused(monkeypatch):
    monkeypatch.setattr("sys.stdin", Stdin(b"- Likes barley tea" + b" " * (MAX_BYTES - 18)))
    assert read_text(Path("-")).startswith("- Likes barley tea")
    monkeypatch.setattr("sys.stdin", Stdin(b"- Likes barley tea" + b" " * (MAX_BYTES - 17)))
    with pytest.raises(InputError) as caught:
        read_text(Path("-"))
    assert caught.value.message == "The standard input is larger than 20 MB: not a memory list."
    assert caught.value.hint == "Export the memory again, or paste the list of memories only."


class Endless:
    """Standard input that never ends (``yes | monchat import --memory -``): a read to its end never returns."""

    def read(self, size=-1):
        assert size is not None and size >= 0, "standard input read to its end"
        return b"y\n" * (size // 2) + b"y" * (size % 2)


def test_endless_standard_input_is_read_one_byte_past_the_limit_and_refused(monkeypatch):
    stdin = Stdin(b"")
    stdin.buffer = Endless()
    monkeypatch.setattr("sys.stdin", stdin)
    with pytest.raises(InputError, match="The standard input is larger than 20 MB"):
        read_text(Path("-"))


def test_the_cli_refuses_standard_input_that_is_not_utf8_with_exit_2(tmp_path, monkeypatch, capsys):
    from monchat.cli import main as cli
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("sys.stdin", Stdin(b"- Likes \xff tea\n"))
    assert cli.main(["import", "--memory", "-"]) == 2
    assert "The standard input is not UTF-8 text." in capsys.readouterr().err
    assert not (tmp_path / "home" / "crash").exists()


def test_an_export_read_from_standard_input_is_imported(fresh, monkeypatch):
    monkeypatch.setattr("sys.stdin", Stdin(export(memory("Likes natto", "active")).encode()))
    report = import_memory(fresh, path=Path("-"))
    assert (report.format, report.queued) == ("monchat-json", 1)


# ---- each limit on both sides of its edge (issue 44, point 3) -------------------------------------------------
@pytest.mark.parametrize("length, kept", [(2000, 2000), (2001, 2000), (3000, 2000)])
def test_a_memory_of_2000_characters_is_kept_whole_and_a_longer_one_is_cut_there(length, kept):
    line = "x" + "y" * (length - 1)  # no sentence end: one memory however long
    (text, _), = pasted_items(line)
    assert text == line[:kept]
    _fmt, (proposal,), _ = parse(export(memory(line, "active")))
    assert proposal.text == line[:kept]


@pytest.mark.parametrize("lines", [19, 20, 21])
def test_twenty_lines_are_quoted_and_the_twenty_first_is_not(fresh, lines):
    evidence = [said("user", f"line number {k} about Kanazawa") for k in range(lines)]
    report = import_memory(fresh, text=export(memory("Lives in Kanazawa", "active", evidence=evidence)))
    assert report.quoted == min(lines, 20)
    assert len(fresh.transfer.quoted(fresh.memory.queue()[0].memory_id)) == min(lines, 20)


@pytest.mark.parametrize("length", [3999, 4000, 4001])
def test_a_quoted_line_of_4000_characters_is_kept_whole_and_a_longer_one_is_cut_there(fresh, length):
    words = "k" * length
    import_memory(fresh, text=export(memory("Lives in Kanazawa", "active", evidence=[said("user", words)])))
    quoted, = fresh.transfer.quoted(fresh.memory.queue()[0].memory_id)
    assert quoted["text"] == words[:4000]


@pytest.mark.parametrize("length", [39, 40, 41])
def test_a_quoted_lines_persona_is_kept_to_40_characters(fresh, length):
    import_memory(fresh, text=export(memory("Lives in Kanazawa", "active",
                                            evidence=[said("user", "moved", persona="m" * length)])))
    quoted, = fresh.transfer.quoted(fresh.memory.queue()[0].memory_id)
    assert quoted["persona"] == "m" * min(length, 40)


def test_memory_md_lists_an_imported_memory_as_waiting_for_review(fresh):
    """Found by a hand-written probe after the mutmut runs (the rebuild taken out: every test passed)."""
    import_memory(fresh, text="- Likes barley tea")
    shown = fresh.paths.memory_md.read_text(encoding="utf-8")
    assert "## Waiting for your review" in shown
    assert "- [queued 2026-12-05] Likes barley tea ^imp-8b3bbab0dcce" in shown


def test_an_import_that_fails_part_way_queues_nothing(fresh, monkeypatch):
    """One transaction: the disk failing at the second memory's quoted lines leaves the first unqueued too (found by a
    hand-written probe after the mutmut runs: the transaction taken out passed every fast test)."""
    import sqlite3

    from monchat.core.store.quoted import QuotedStore
    keep, calls = QuotedStore.keep, []

    def failing_second(self, queue_id, lines):
        calls.append(queue_id)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk I/O error")
        return keep(self, queue_id, lines)

    monkeypatch.setattr(QuotedStore, "keep", failing_second)
    text = export(*[memory(f"Lives in town {k}", "active", evidence=[said("user", f"I live in town {k}")])
                    for k in (1, 2, 3)])
    with pytest.raises(sqlite3.OperationalError):
        import_memory(fresh, text=text)
    assert len(calls) == 2
    assert fresh.memory.queue() == [] and fresh.memory.memories.all() == []
