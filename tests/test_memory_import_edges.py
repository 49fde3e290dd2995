"""Memory import at its edges (issue 44: tests that bite): what must stay out stays out, state by state.

Each test kills a mutant of ``core/transfer/memory_import.py`` that every other test let live: a memory the
user refused (or forgot, or that was replaced or taken back) coming back into the review queue, a line the
file marks as the assistant's quoted as the user's, the item limit grown tenfold.
"""

from __future__ import annotations

import json
from datetime import timezone
from pathlib import Path

import pytest

from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.transfer.memory_export import FORMAT, MARKDOWN_MARK
from monchat.core.transfer.memory_import import import_memory, parse, pasted_items

UTC = timezone.utc
HISTORY = ["superseded", "retracted", "retraction", "forgotten", "rejected"]  # docs: never proposed again
LIVE = ["active", "candidate", "queued", "pending", "dormant"]


@pytest.fixture
def fresh(tmp_path):
    app = build_app(str(tmp_path / "home"), tz=UTC)
    yield app
    app.close()


def export(*memories: dict) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "memories": list(memories)})


def memory(text: str, state: str, **more) -> dict:
    return {"id": f"mem-{abs(hash(text)) % 10**8}", "text": text, "slot": "food/likes", "kind": "explicit",
            "state": state, "valid_at": "2026-11-29T19:00:00.000+09:00", "superseded_by": None, "evidence": [],
            **more}


@pytest.mark.parametrize("state", HISTORY)
def test_a_memory_of_the_exports_history_never_comes_back_into_the_review_queue(fresh, state):
    text = f"Likes natto ({state} in the file)"
    report = import_memory(fresh, text=export(memory(text, state), memory("Likes umeboshi", "active")))
    assert (report.queued, report.left_out) == (1, 1)
    assert [r.text for r in fresh.memory.queue()] == ["Likes umeboshi"]
    assert text not in {m.text for m in fresh.memory.memories.all()}


@pytest.mark.parametrize("state", HISTORY)
def test_the_markdown_form_leaves_the_same_history_out(fresh, state):
    text = "\n".join([MARKDOWN_MARK, "", f"## Likes natto ({state})", "",
                      f"- state: {state} · slot: food/likes · kind: explicit · layer: 1", "",
                      "## Likes umeboshi", "", "- state: active · slot: food/likes · kind: explicit · layer: 1"])
    report = import_memory(fresh, text=text)
    assert (report.format, report.queued, report.left_out) == ("monchat-markdown", 1, 1)
    assert [r.text for r in fresh.memory.queue()] == ["Likes umeboshi"]


@pytest.mark.parametrize("state", LIVE)
def test_a_live_memory_of_an_export_waits_for_review(fresh, state):
    report = import_memory(fresh, text=export(memory("Likes natto", state)))
    assert (report.queued, report.left_out) == (1, 0)


def test_a_memory_the_export_says_was_replaced_stays_out_whatever_its_state(fresh):
    report = import_memory(fresh, text=export(memory("Lived in Sendai", "active", superseded_by="mem-x")))
    assert (report.queued, report.left_out) == (0, 1)


def said(role: str, text: str, **more) -> dict:
    return {"id": f"{role[0]}-1", "ts": "2026-11-29T19:00:00.000+09:00", "role": role, "text": text,
            "persona": "mira", "contradicts": False, **more}


def test_a_line_the_file_marks_as_the_assistants_is_not_quoted_as_the_users(fresh):
    entry = memory("Lives in Kanazawa", "active", evidence=[
        said("assistant", "You live in Kanazawa, right?"),
        said("user", "moved last week, I'm in Kanazawa now"),
        said("system", "The user lives in Kanazawa."),
        said("user", "not Kanazawa, Sendai", contradicts=True)])
    _fmt, proposals, _ = parse(export(entry))
    assert [e["text"] for e in proposals[0].evidence] == ["moved last week, I'm in Kanazawa now"]
    report = import_memory(fresh, text=export(entry))
    assert report.quoted == 1
    memory_id = fresh.memory.queue()[0].memory_id
    assert [q["text"] for q in fresh.transfer.quoted(memory_id)] == ["moved last week, I'm in Kanazawa now"]


# ---- the item limit: 5,000 memories read at once (the number the message names) ---------------------------
def numbered(n: int) -> str:
    return "\n".join(f"- remembers fact number {k}" for k in range(n))


def test_a_list_of_the_limit_is_read_and_one_more_is_refused():
    assert len(pasted_items(numbered(5000))) == 5000
    with pytest.raises(InputError, match="5001 memories; at most 5000"):
        pasted_items(numbered(5001))


def test_a_list_ten_times_the_limit_is_refused_with_nothing_imported(fresh):
    with pytest.raises(InputError, match="at most 5000"):
        import_memory(fresh, text=numbered(50_000))
    assert fresh.memory.queue() == []


# ---- what a file's memory quotes: bounded, plain text, each as the file gives it -------------------------------
def quoted_of(fresh, *evidence: dict) -> list[dict]:
    import_memory(fresh, text=export(memory("Lives in Kanazawa", "active", evidence=list(evidence))))
    return fresh.transfer.quoted(fresh.memory.queue()[0].memory_id)


def test_at_most_twenty_lines_are_quoted_in_the_files_order(fresh):
    lines = quoted_of(fresh, *[said("user", f"line number {k} about Kanazawa") for k in range(25)])
    assert [q["text"] for q in lines] == [f"line number {k} about Kanazawa" for k in range(20)]


def test_a_quoted_line_is_one_line_of_plain_text_at_most_4000_characters(fresh):
    lines = quoted_of(fresh, said("user", "   "), said("user", 42), said("user", "\x1b\x07"),
                      said("user", "x" * 5000), said("user", "a\x1b[2J  b\n\tc\x07d"), said("user", "\ud800"),
                      said("user", "after them all"))
    assert [q["text"] for q in lines] == ["x" * 4000, "a[2J b cd", "after them all"]


def test_who_and_when_are_kept_as_the_file_gives_them_or_left_empty(fresh):
    lines = quoted_of(fresh, said("user", "first", persona="p" * 60),
                      said("user", "second", persona=7, ts="not a time"),
                      said("user", "third", ts=None))
    assert [(q["text"], q["persona"], q["said_at"]) for q in lines] == [
        ("first", "p" * 40, "2026-11-29T19:00:00.000+09:00"), ("second", "", None), ("third", "mira", None)]


# ---- a pasted list: each bullet, the sentence split at 200 characters, the shortest memory --------------------
@pytest.mark.parametrize("bullet", ["-", "*", "+", "•", "・", "●", "▪", "‣", "◦", "1.", "12)", "3．", "4、", "(5)",
                                    "（6）"])
def test_each_kind_of_bullet_is_taken_off(bullet):
    assert pasted_items(f"{bullet} Likes barley tea") == [("Likes barley tea", None)]


def test_a_line_of_200_characters_is_one_memory_and_a_longer_one_is_split_into_sentences():
    first = "Likes barley tea in summer."
    at_200 = first + " " + "b" * (200 - len(first) - 2) + "."
    assert len(at_200) == 200 and len(pasted_items(at_200)) == 1
    assert [t for t, _ in pasted_items(at_200 + "c")] == [first, "b" * (200 - len(first) - 2) + ".c"]


def test_the_shortest_memory_has_three_characters_and_a_letter():
    assert [t for t, _ in pasted_items("ab\nabc\n123 456\n- 7\ncat")] == ["abc", "cat"]


def test_a_date_in_brackets_is_when_it_held_and_an_impossible_date_is_dropped():
    (text, valid_at), = pasted_items("[2026-03-01] - Likes barley tea")
    assert text == "Likes barley tea" and valid_at.startswith("2026-03-01T00:00:00")
    assert pasted_items("2026-13-45: Likes green tea") == [("Likes green tea", None)]


def test_the_same_memory_twice_in_a_list_is_one():
    assert pasted_items("Likes Barley Tea\n- likes  barley   tea\nＬｉｋｅｓ barley tea") == [("Likes Barley Tea", None)]


# ---- what a user reads when a memory file cannot be used --------------------------------------------------------
def test_a_file_of_the_size_limit_is_read_and_one_byte_more_is_refused_with_a_hint(tmp_path):
    from monchat.core.transfer.memory_import import MAX_BYTES, read_text
    path = tmp_path / "memory.txt"
    path.write_bytes(b"\xef\xbb\xbf- Likes barley tea" + b" " * (MAX_BYTES - 21))
    assert path.stat().st_size == MAX_BYTES
    assert read_text(path).startswith("- Likes barley tea")  # the byte-order mark is not text
    with open(path, "ab") as more:
        more.write(b" ")
    with pytest.raises(InputError) as caught:
        read_text(path)
    assert caught.value.message == f"{path} is larger than 20 MB: not a memory list."
    assert caught.value.hint == "Export the memory again, or paste the list of memories only."


def test_a_missing_or_undecodable_file_says_what_and_what_to_do(tmp_path):
    from monchat.core.transfer.memory_import import read_text
    with pytest.raises(InputError) as caught:
        read_text(tmp_path / "gone.txt")
    assert (caught.value.message, caught.value.hint) == (
        f"Cannot read {tmp_path / 'gone.txt'}: No such file or directory.", "Check the path.")
    (tmp_path / "latin1.txt").write_bytes("café au lait".encode("latin-1"))
    with pytest.raises(InputError) as caught:
        read_text(tmp_path / "latin1.txt")
    assert (caught.value.message, caught.value.hint) == (
        f"{tmp_path / 'latin1.txt'} is not UTF-8 text.", "Save the list as UTF-8 text and import it again.")


def test_a_dash_reads_standard_input(monkeypatch):
    import io

    from monchat.core.transfer.memory_import import read_text
    monkeypatch.setattr("sys.stdin", io.StringIO("- Likes barley tea\n"))
    assert read_text(Path("-")) == "- Likes barley tea\n"


@pytest.mark.parametrize("data", [
    {"format": "monchat-memory", "memories": {"not": "a list"}},
    {"format": "other", "memories": []},
    {"memories": []},
])
def test_json_that_is_not_our_export_is_refused_with_the_way_to_import_a_conversation(data):
    with pytest.raises(InputError) as caught:
        parse(json.dumps(data))
    assert caught.value.message == 'This JSON is not a monchat memory export (no "format": "monchat-memory").'
    assert caught.value.hint == ("Export with `monchat export --memory json`; for a ChatGPT or Claude conversation "
                                 "export use `monchat import FILE` (without --memory).")


@pytest.mark.parametrize("version", [2, 0, "1", None])
def test_an_export_of_another_version_is_refused_saying_which(version):
    with pytest.raises(InputError) as caught:
        parse(json.dumps({"format": FORMAT, "version": version, "memories": []}))
    assert caught.value.message == (f"This memory export has version {json.dumps(version)}; this monchat reads "
                                    "version 1, so nothing was imported.")
    assert caught.value.hint == "Update monchat, or export again with this one."


def test_the_markdown_form_counts_every_memory_it_leaves_out():
    text = "\n".join([MARKDOWN_MARK, "", "## Lived in Sendai", "", "- state: superseded · slot: home/city · kind: "
                      "explicit", "", "## Likes natto", "", "- state: rejected · slot: food/likes · kind: explicit",
                      "", "## Odd", "", "- state: active · slot: x/y · kind: nonsense"])
    assert parse(text)[1:] == ([], 3)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_number_json_does_not_allow_is_named(constant):
    with pytest.raises(InputError) as caught:
        parse('{"format": "monchat-memory", "version": 1, "memories": [{"score": ' + constant + "}]}")
    assert caught.value.message == f"This memory file holds {constant}, which is not a number; nothing was imported."


def test_a_memory_rejected_after_an_import_is_not_proposed_again_by_the_same_file(fresh):
    text = export(memory("Likes natto", "active"))
    import_memory(fresh, text=text)
    fresh.memory.reject(str(fresh.memory.queue()[0].id))
    again = import_memory(fresh, text=text)
    assert (again.queued, again.already_known) == (0, 1)
    assert fresh.memory.queue() == []


@pytest.mark.parametrize("text, source, message, hint", [
    ('{"format": "monchat-memory", ', "pasted",
     "This file starts like JSON but cannot be read as JSON; nothing was imported.",
     "Export the memory again with `monchat export --memory json`."),
    ('{"format": "monchat-memory", "version": 1, "memories": [NaN]}', "pasted",
     "This memory file holds NaN, which is not a number; nothing was imported.",
     "Export the memory again with `monchat export --memory json`."),
    ("Likes barley tea", "gemini", "'gemini' is not a source of pasted memories.", "Use one of: chatgpt, claude, pasted."),
    ("```\n12\n```", "pasted", "No memories found: the text has no line that says something.",
     "Paste the memories one per line (ChatGPT: Settings → Personalization → Manage memories)."),
])
def test_each_refusal_of_a_memory_file_word_for_word(text, source, message, hint):
    with pytest.raises(InputError) as caught:
        parse(text, source)
    assert (caught.value.message, caught.value.hint) == (message, hint)


def test_a_pasted_list_keeps_its_dates_its_source_and_leaves_nothing_out():
    fmt, proposals, left_out = parse("Saved memories:\n[2026-03-01] Likes barley tea\n```json\nIs a cat person\n```")
    assert (fmt, left_out) == ("pasted", 0)
    assert [(p.text, p.slot, p.kind) for p in proposals] == [
        ("Likes barley tea", "imported/pasted", "explicit"), ("Is a cat person", "imported/pasted", "explicit")]
    assert proposals[0].valid_at.startswith("2026-03-01") and proposals[1].valid_at is None


def test_json_after_white_space_is_still_read_as_json():
    assert parse("\n\n   " + export(memory("Likes natto", "active")))[0] == "monchat-json"


@pytest.mark.parametrize("text, source, proposer", [
    ("Likes barley tea", "chatgpt", "ChatGPT"), ("Likes barley tea", "claude", "Claude"),
    ("Likes barley tea", "pasted", "pasted list"), (None, "pasted", "monchat export"),
    ("\n".join([MARKDOWN_MARK, "", "## Likes barley tea", "", "- state: active · slot: drink/likes · kind: explicit"]),
     "pasted", "monchat export"),
])
def test_the_review_says_where_an_imported_memory_came_from(fresh, text, source, proposer):
    import_memory(fresh, text=text or export(memory("Likes barley tea", "active")), source=source)
    item, = fresh.memory.queue()
    assert item.proposers == [proposer] and item.held == "imported"
    assert item.reason == f"imported from {proposer}: it becomes memory only if you approve it"


def test_an_import_while_a_flush_runs_is_refused_and_queues_nothing(fresh):
    from monchat.core.errors import FlushRunning
    from monchat.core.paths import held_lock
    with held_lock(fresh.paths.flush_lock) as held:
        assert held
        with pytest.raises(FlushRunning) as caught:
            import_memory(fresh, text="Likes barley tea")
    assert caught.value.message == "A flush is running in another monchat window or terminal."
    assert caught.value.hint == "Import the memory when it has finished."
    assert fresh.memory.queue() == []


@pytest.mark.parametrize("entry, why", [
    ("not an object", "not an object"), ({"state": "active", "slot": "a/b", "kind": "explicit"}, "'text'"),
    ({"state": "asleep", "text": "x", "slot": "a/b", "kind": "explicit"}, "'asleep' is not a valid State"),
    ({"state": "active", "text": "x", "slot": "a/b", "kind": "rumour"}, "'rumour' is not a valid Kind"),
])
def test_a_memory_of_an_export_that_cannot_be_read_is_named_and_nothing_is_imported(entry, why):
    good = memory("Likes natto", "active")
    with pytest.raises(InputError) as caught:
        parse(json.dumps({"format": FORMAT, "version": 1, "memories": [good, entry]}))
    assert caught.value.message == f"Memory 2 of the export cannot be read ({why}); nothing was imported."
    assert caught.value.hint == ("Export it again; a file edited by hand must keep the format of "
                                 "docs/memory-export.md.")
