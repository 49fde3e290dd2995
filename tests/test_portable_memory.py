"""Portable memory: export (JSON checked against docs/memory-export.schema.json, and Markdown), import back
into the review queue only (twice adds nothing), and lists pasted from ChatGPT and Claude."""

from __future__ import annotations

import json
from datetime import timezone
from pathlib import Path

import jsonschema
import pytest

from monchat.cli import main as cli
from monchat.app import build_app
from monchat.core.errors import InputError
from monchat.core.vocabulary.states import Kind, State
from monchat.core.transfer.memory_export import export_data, export_json, export_markdown
from monchat.core.transfer.memory_import import import_memory, pasted_items
from tests.support.memory_seed import seed

UTC = timezone.utc
SCHEMA = json.loads((Path(__file__).parents[1] / "docs" / "memory-export.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def source(home):
    app = build_app(str(home), tz=UTC)
    seed(app)
    yield app
    app.close()


@pytest.fixture
def fresh(tmp_path):
    app = build_app(str(tmp_path / "other-home"), tz=UTC)
    yield app
    app.close()


def by_id(data: dict) -> dict:
    return {m["id"]: m for m in data["memories"]}


def test_the_json_export_has_every_memory_its_history_and_words_and_fits_the_schema(source):
    data = json.loads(export_json(source.memory.memories, source.clock()))
    jsonschema.validate(data, SCHEMA)
    memories = by_id(data)
    assert set(memories) == {"mem-sendai", "mem-kanazawa", "mem-tea"}
    old, new = memories["mem-sendai"], memories["mem-kanazawa"]
    assert (old["state"], old["superseded_by"], old["invalid_at"]) == ("superseded", "mem-kanazawa", new["valid_at"])
    assert new["history"] == ["mem-sendai"] and "history" not in old
    assert (new["state"], new["slot"], new["kind"], new["layer"]) == ("active", "home/city", "explicit", 1)
    assert [e["text"] for e in new["evidence"]] == ["moved last week, I'm in Kanazawa now"]
    assert [e["text"] for e in old["evidence"]] == ["Remember: I live in Sendai"]
    assert memories["mem-tea"]["state"] == "queued"


def test_the_schema_rejects_what_the_format_forbids(source):
    data = export_data(source.memory.memories, source.clock())
    data["memories"][0]["state"] = "approved"  # not a state
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_the_schema_names_exactly_the_states_and_kinds_monchat_has():
    memory = SCHEMA["$defs"]["memory"]["properties"]
    assert set(memory["state"]["enum"]) == {str(s) for s in State}
    assert set(memory["kind"]["enum"]) == {str(k) for k in Kind}


def test_a_round_trip_lands_in_the_review_queue_only_and_twice_adds_nothing(source, fresh, tmp_path):
    path = tmp_path / "memory.json"
    path.write_text(export_json(source.memory.memories, source.clock()), encoding="utf-8")
    report = import_memory(fresh, path)
    assert (report.format, report.queued, report.left_out) == ("monchat-json", 2, 1)  # Sendai is history
    queue = fresh.memory.queue()
    assert sorted(r.text for r in queue) == ["Drinks green tea with every meal", "Lives in Kanazawa"]
    assert {r.held for r in queue} == {"imported"} and {tuple(r.proposers) for r in queue} == {("monchat export",)}
    assert all(m.state is State.QUEUED for m in fresh.memory.memories.all())
    assert fresh.memory.prompt_items() == ([], [])  # nothing in the prompt before the user says yes
    kanazawa = next(m for m in fresh.memory.memories.all() if m.text == "Lives in Kanazawa")
    assert (kanazawa.slot, kanazawa.kind, kanazawa.valid_at) == ("home/city", "explicit",
                                                                 "2026-11-29T19:00:00.000+09:00")
    # Its words come along as quoted material, kept with the review item; never as messages (issue 36).
    assert fresh.memory.evidence(kanazawa.id) == [] and fresh.archive.count() == 0
    assert [q["text"] for q in fresh.transfer.quoted(kanazawa.id)] == ["moved last week, I'm in Kanazawa now"]
    assert report.quoted == 2
    again = import_memory(fresh, path)
    assert (again.queued, again.already_known, again.quoted) == (0, 2, 0)
    assert len(fresh.memory.queue()) == 2 and fresh.archive.count() == 0
    fresh.memory.approve(str(queue[-1].id))  # the user's yes makes it memory
    assert [i.text for i in fresh.memory.prompt_items()[0]] == [queue[-1].text]
    assert fresh.transfer.quoted(queue[-1].memory_id) == queue[-1].quoted  # still kept with its closed review


def test_importing_an_export_into_the_same_monchat_adds_nothing(source, tmp_path):
    path = tmp_path / "memory.json"
    path.write_text(export_json(source.memory.memories, source.clock()), encoding="utf-8")
    report = import_memory(source, path)
    assert (report.queued, report.already_known) == (0, 2)
    assert len(source.memory.queue()) == 1


def test_the_markdown_export_reads_and_reads_back(source, fresh, tmp_path):
    text = export_markdown(source.memory.memories, source.clock())
    assert "## Lives in Kanazawa" in text and "before: “Lives in Sendai”" in text
    assert "“moved last week, I'm in Kanazawa now”" in text
    path = tmp_path / "memory.md"
    path.write_text(text, encoding="utf-8")
    report = import_memory(fresh, path)
    assert (report.format, report.queued) == ("monchat-markdown", 2)
    assert {(m.text, m.slot, m.kind) for m in fresh.memory.memories.all()} == {
        ("Lives in Kanazawa", "home/city", "explicit"), ("Drinks green tea with every meal", "drink/daily", "habit")}


CHATGPT = """\
- Is a software engineer who lives in Kanazawa.
- Prefers short answers with code examples.
• Has a cat named Mochi.
1. Is learning to play the guitar.
"""

CLAUDE = """\
```
## Personal context
[2026-03-01] - Lives in Kanazawa with a cat named Mochi.
**Work context**
- Works as a software engineer on a chat app written in Python.
Instructions:
- Wants answers in Japanese when asked in Japanese.
```
"""


def test_a_chatgpt_list_becomes_explicit_items_waiting_for_review(fresh, tmp_path):
    path = tmp_path / "chatgpt.txt"
    path.write_text(CHATGPT, encoding="utf-8")
    report = import_memory(fresh, path, source="chatgpt")
    assert (report.format, report.queued) == ("chatgpt", 4)
    memories = fresh.memory.memories.all()
    assert {m.text for m in memories} == {"Is a software engineer who lives in Kanazawa.",
                                          "Prefers short answers with code examples.", "Has a cat named Mochi.",
                                          "Is learning to play the guitar."}
    assert {(m.kind, m.slot, m.state) for m in memories} == {("explicit", "imported/chatgpt", State.QUEUED)}
    assert {tuple(r.proposers) for r in fresh.memory.queue()} == {("ChatGPT",)}
    assert import_memory(fresh, path, source="chatgpt").queued == 0


def test_a_claude_memory_export_keeps_its_items_not_its_headings_or_fences():
    items = pasted_items(CLAUDE)
    assert [t for t, _ in items] == ["Lives in Kanazawa with a cat named Mochi.",
                                     "Works as a software engineer on a chat app written in Python.",
                                     "Wants answers in Japanese when asked in Japanese."]
    assert items[0][1].startswith("2026-03-01")


def test_a_long_paragraph_is_split_into_sentences():
    paragraph = ("The user lives in Kanazawa and works as a software engineer on a desktop chat app. " * 2
                 + "They drink barley tea every morning. They are learning the guitar.")
    assert [t for t, _ in pasted_items(paragraph)] == [
        "The user lives in Kanazawa and works as a software engineer on a desktop chat app.",
        "They drink barley tea every morning.", "They are learning the guitar."]


def test_a_file_with_nothing_to_remember_or_a_foreign_json_is_refused(fresh, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("```\n\n## Heading\n- \n", encoding="utf-8")
    with pytest.raises(InputError, match="No memories"):
        import_memory(fresh, empty)
    foreign = tmp_path / "conversations.json"
    foreign.write_text('{"title": "a chat", "mapping": {}}', encoding="utf-8")
    with pytest.raises(InputError, match="not a monchat memory export"):
        import_memory(fresh, foreign)
    assert fresh.memory.queue() == []


def test_the_cli_exports_and_imports(source, tmp_path, monkeypatch, capsys):
    out = tmp_path / "out.json"
    assert cli.main(["export", "--memory", "json", str(out)]) == 0
    jsonschema.validate(json.loads(out.read_text(encoding="utf-8")), SCHEMA)
    assert cli.main(["export", "--memory", "markdown"]) == 0
    assert "## Lives in Kanazawa" in capsys.readouterr().out
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "third"))
    assert cli.main(["import", "--memory", str(out)]) == 0
    assert "2 of 2 memories now wait for your review" in capsys.readouterr().out
    pasted = tmp_path / "saved.txt"
    pasted.write_text(CHATGPT, encoding="utf-8")
    assert cli.main(["import", "--memory", "--source", "chatgpt", str(pasted)]) == 0
    assert "chatgpt: 4 of 4" in capsys.readouterr().out
    assert cli.main(["memory", "queue", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 6


def test_broken_json_is_refused_and_never_read_as_a_list(fresh, tmp_path):
    for name, text in (("cut.json", '{"format": "monchat-memory", "memories": ['),
                       ("deep.json", "[" * 100_000), ("array.json", '[{"title": "a chat"}]')):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError):
            import_memory(fresh, path)
    assert fresh.memory.memories.all() == []


def test_evidence_whose_id_holds_other_words_here_is_not_carried(source, fresh, tmp_path):
    from monchat.core.types import Message
    fresh.archive.archive([Message(id="u-kanazawa", ts="2026-11-29T19:00:00.000+09:00", role="user",
                                   text="something else entirely", persona="mira")])
    path = tmp_path / "memory.json"
    path.write_text(export_json(source.memory.memories, source.clock()), encoding="utf-8")
    import_memory(fresh, path)
    kanazawa = next(m for m in fresh.memory.memories.all() if m.text == "Lives in Kanazawa")
    assert fresh.memory.evidence(kanazawa.id) == []
    assert fresh.archive.get("u-kanazawa").text == "something else entirely"  # the message here stays as it was


def test_an_import_left_unanswered_is_set_aside_never_left_to_the_views(source, fresh, tmp_path):
    """Past the review deadline a flush's prune closes the review: an imported memory goes pending (out of the
    prompt and the views), where a flush's own Layer 1 proposal would return to candidate."""
    from datetime import timedelta

    from monchat.core.flush.prune import prune
    from monchat.core.store.shown import ShownStore
    path = tmp_path / "memory.json"
    path.write_text(export_json(source.memory.memories, source.clock()), encoding="utf-8")
    import_memory(fresh, path)
    later = fresh.clock() + timedelta(days=fresh.settings.flush.review_deadline_days + 1)
    with fresh.store.atomic():
        prune(fresh.memory.memories, fresh.settings.flush, later, None)
    assert {m.state for m in fresh.memory.memories.all()} == {State.PENDING}
    assert fresh.memory.queue() == [] and ShownStore(fresh.store).ids() == set()


def test_a_claude_list_whose_first_line_is_dated_is_read_as_a_list_not_refused_as_json(fresh, tmp_path, capsys):
    """Claude's dated lines (``[2026-03-01] Prefers tea``) start with ``[`` but are a pasted list: each line is a
    memory and its date is kept as when it held. A file that really is broken JSON is still refused (above)."""
    path = tmp_path / "claude.txt"
    path.write_text("[2026-03-01] Prefers tea over coffee\n[2026-03-04] Lives in Kanazawa with a cat named Mochi.\n",
                    encoding="utf-8")
    report = import_memory(fresh, path, source="claude")
    assert (report.format, report.queued) == ("claude", 2)
    held = {m.text: m.valid_at[:10] for m in fresh.memory.memories.all()}
    assert held == {"Prefers tea over coffee": "2026-03-01", "Lives in Kanazawa with a cat named Mochi.": "2026-03-04"}
    assert cli.main(["import", "--memory", "--source", "claude", str(path)]) == 0
    assert "claude: 2 of 2" in capsys.readouterr().out
