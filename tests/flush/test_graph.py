"""The graph of what the user talks about, through the real flush: nodes, five signals, held edges, discoveries.

The oracle plays every LLM call; the graph is the program's alone (``core/background/graph.py``).
Sessions are the 6-hour log files, JST.
"""

from __future__ import annotations

import math

import pytest

from monchat.core.background.graph import entities
from monchat.core.background.similarity import TfIdf
from monchat.core.errors import SettingsError
from monchat.core.settings import Settings, set_value
from tests.flush.conftest import Judgement, Rule

GUITAR = Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9)
TEA = Rule("緑茶", "緑茶を飲む", "drink/daily", "habit", 0.8, persona="lifestyle")
MIRA = Rule("ミラ", "ミラと仙台で会った", "friend/mira", "fact", 0.9)
SIGNALS = {"co_occurrence", "session_overlap", "adamic_adar", "type_affinity", "similarity"}


def four_sessions(world) -> None:
    """Guitar in sessions A and B, tea in A and C, Mira in D (four 6-hour files)."""
    world.oracle.rules = [GUITAR, TEA, MIRA]
    world.say("2026-11-23T21:00:00+09:00", "ギターを弾いた")  # A: 2026-11-23_18
    world.say("2026-11-23T21:05:00+09:00", "緑茶を飲んだ")  # A
    world.say("2026-11-24T12:00:00+09:00", "ギターの練習")  # B
    world.say("2026-11-25T08:00:00+09:00", "緑茶をいれた")  # C
    world.say("2026-11-25T20:00:00+09:00", "ミラと仙台で会った")  # D
    world.flush("2026-11-25T22:00:00+09:00")


def edges_by_pair(graph: dict) -> dict[tuple[str, str], dict]:
    return {(e["source"], e["target"]): e for e in graph["edges"]}


def composite(signals: dict, settings) -> float:
    """The weight as the settings say: Σ wᵢ·sᵢ / Σ wᵢ, Adamic–Adar squashed to AA / (1 + AA)."""
    unit = {**signals, "adamic_adar": signals["adamic_adar"] / (1 + signals["adamic_adar"])}
    weights = {k: getattr(settings, f"weight_{k}") for k in SIGNALS}
    return sum(weights[k] * unit[k] for k in SIGNALS) / sum(weights.values())


def test_graph_json_lists_edges_with_five_signals_by_their_formulas(world, capsys):
    four_sessions(world)
    graph = world.cli_json(capsys, "graph")
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert set(nodes) == {"topic:hobby", "topic:drink", "topic:friend", "entity:ギター", "entity:ミラ"}
    assert (nodes["entity:ミラ"]["type"], nodes["entity:ギター"]["type"]) == ("person", "thing")  # by their topics
    assert nodes["topic:hobby"]["sessions"] == 2 and nodes["topic:friend"]["sessions"] == 1
    edges = edges_by_pair(graph)
    assert set(edges) == {("entity:ギター", "topic:hobby"), ("entity:ギター", "topic:drink"),
                          ("topic:drink", "topic:hobby"), ("entity:ミラ", "topic:friend")}
    for e in graph["edges"]:
        assert set(e["signals"]) == SIGNALS
        assert e["weight"] == pytest.approx(composite(e["signals"], world.app.settings.graph), abs=1e-4)

    # Guitar (topic and entity) in A and B; the graph has 4 sessions; their one common neighbour, drink, has degree 2.
    s = edges[("entity:ギター", "topic:hobby")]["signals"]
    assert s["co_occurrence"] == pytest.approx(math.log(3) / math.log(5), abs=1e-4)
    assert s["session_overlap"] == 1.0
    assert s["adamic_adar"] == pytest.approx(1 / math.log(2), abs=1e-4)
    assert s["type_affinity"] == 0.8  # topic–thing
    assert 0.3 < s["similarity"] < 1.0  # the same memory text, plus the topic's name
    # Drink and hobby meet in session A only: 1 of 3 sessions; their texts share no n-gram.
    s = edges[("topic:drink", "topic:hobby")]["signals"]
    assert s["co_occurrence"] == pytest.approx(math.log(2) / math.log(5), abs=1e-4)
    assert s["session_overlap"] == pytest.approx(1 / 3, abs=1e-4)
    assert s["adamic_adar"] == pytest.approx(1 / math.log(2), abs=1e-4)  # through ギター
    assert (s["type_affinity"], s["similarity"]) == (0.5, 0.0)  # topic–topic
    s = edges[("entity:ミラ", "topic:friend")]["signals"]
    assert (s["adamic_adar"], s["type_affinity"]) == (0.0, 0.7)  # no common neighbour; topic–person

    out = world.cli(capsys, "graph")
    assert "5 node(s), 3 edge(s) drawn, 1 held" in out and "ギター — hobby" in out


def test_an_edge_below_the_threshold_is_held_not_drawn_and_the_threshold_is_a_setting(world, capsys):
    four_sessions(world)
    graph = world.cli_json(capsys, "graph")
    threshold = world.app.settings.graph.edge_threshold
    assert all(e["held"] == (e["weight"] < threshold) for e in graph["edges"])
    held = edges_by_pair(graph)[("topic:drink", "topic:hobby")]
    assert held["held"] and held["weight"] < threshold  # stored, with its signals, but not drawn
    clusters = {n["id"]: n["cluster"] for n in graph["nodes"]}
    assert clusters["topic:drink"] == clusters["topic:hobby"] != clusters["topic:friend"]  # joined via ギター

    world.app.settings.graph.edge_threshold = held["weight"]  # on the threshold: drawn
    world.say("2026-11-26T20:00:00+09:00", "今日は休み")
    world.flush("2026-11-26T22:00:00+09:00")
    again = edges_by_pair(world.cli_json(capsys, "graph"))[("topic:drink", "topic:hobby")]
    assert not again["held"] and again["weight"] == held["weight"]
    world.app.settings.graph.edge_threshold = held["weight"] + 0.0001
    world.say("2026-11-27T20:00:00+09:00", "今日も休み")
    world.flush("2026-11-27T22:00:00+09:00")
    assert edges_by_pair(world.cli_json(capsys, "graph"))[("topic:drink", "topic:hobby")]["held"]

    with pytest.raises(SettingsError):
        set_value(Settings(), "graph.edge_threshold", "1.5")
    settings = Settings()
    set_value(settings, "graph.weight_similarity", "0.5")
    assert settings.graph.weight_similarity == 0.5


def test_similarity_is_character_ngram_tfidf_cosine():
    tfidf = TfIdf({"a": "abc", "b": "abd", "c": "xyz"})
    # ab is in 2 of 3 documents: idf ln(4/3)+1; bc, abc, bd, abd in one: ln(4/2)+1. cos = ab² / (ab² + 2·one²).
    shared, own = math.log(4 / 3) + 1, math.log(2) + 1
    assert tfidf.cosine("a", "b") == pytest.approx(shared ** 2 / (shared ** 2 + 2 * own ** 2))
    assert tfidf.cosine("a", "c") == 0.0 and tfidf.cosine("a", "a") == pytest.approx(1.0)
    japanese = TfIdf({"tea": "緑茶が好き", "drink": "緑茶を飲む", "guitar": "ギターを弾く", "empty": ""})
    assert japanese.cosine("tea", "drink") > 0.0  # 緑茶, with no word boundaries
    assert japanese.cosine("tea", "guitar") == 0.0 and japanese.cosine("tea", "empty") == 0.0


def test_entities_are_quoted_katakana_and_capitalised_names():
    assert entities("Lives in Sendai with Mira Nova") == ["Sendai", "Mira Nova"]
    assert entities("The Beatles are her favourite. Plays bass") == ["Beatles"]  # sentence starts are grammar
    assert entities("Met Mira Nova in Sendai") == ["Mira Nova", "Sendai"]
    assert entities("ユーザーは「夜の散歩」が好きでギターとミラ・ノヴァの曲を弾く") == ["夜の散歩", "ギター", "ミラ・ノヴァ"]
    assert entities('Reads "Dune" and dune again') == ["Dune"]  # once, whatever the case
    assert entities("金沢の近江町市場の近くに住んでいる", place=True) == ["金沢", "近江町市場"]
    assert entities("金沢の近江町市場の近くに住んでいる") == []  # kanji runs are names only in a place topic


def test_a_strong_two_hop_link_without_a_direct_edge_is_a_discovery_above_its_threshold(make_world, capsys):
    found = {}
    for name, threshold in (("above", 1.4427), ("below", 1.4428)):  # 2 / ln 4, rounded to 4 places
        world = make_world(name)
        world.app.settings.graph.two_hop_threshold = threshold
        world.oracle.rules = [GUITAR, TEA, Rule("ミラ", "ミラとギターを弾いた", "friend/mira", "fact", 0.9)]
        world.say("2026-11-23T21:00:00+09:00", "ミラとギターを弾いた")
        world.say("2026-11-24T12:00:00+09:00", "ギターの練習、緑茶を飲んだ")
        world.flush("2026-11-24T22:00:00+09:00")
        found[name] = [d for d in world.cli_json(capsys, "inbox")["discoveries"] if d["kind"] == "two_hop"]
        edge = edges_by_pair(world.cli_json(capsys, "graph"))[("topic:drink", "topic:friend")]
        # Never in one session; two common neighbours (guitar's topic and entity) of degree 4: 2 / ln 4.
        assert edge["sessions"] == 0 and edge["signals"]["adamic_adar"] == pytest.approx(2 / math.log(4), abs=1e-4)
    assert {tuple(d["nodes"][:2]) for d in found["above"]} == {("topic:drink", "topic:friend"),
                                                               ("entity:ミラ", "topic:drink")}
    assert found["above"][0]["score"] == pytest.approx(2 / math.log(4), abs=1e-4)
    assert found["below"] == []


def test_a_bridge_between_clusters_that_had_none_is_queued_once_above_its_threshold(make_world, capsys):
    found = {}
    for name, threshold in (("above", 0.3853), ("below", 0.3854)):  # the bridging edge's weight
        world = make_world(name)
        world.app.settings.graph.bridge_threshold = threshold
        world.oracle.rules = [GUITAR, TEA]
        world.oracle.judgements = {("ギターを練習する", "ギターを練習する"): Judgement("SAME"),
                                   ("緑茶を飲む", "緑茶を飲む"): Judgement("SAME")}
        world.say("2026-11-23T21:00:00+09:00", "ギターを弾いた")
        world.say("2026-11-24T12:00:00+09:00", "緑茶を飲んだ")
        world.flush("2026-11-24T22:00:00+09:00")
        first = {n["id"]: n["cluster"] for n in world.cli_json(capsys, "graph")["nodes"]}
        assert first["topic:drink"] != first["entity:ギター"]  # two clusters, no link
        assert world.cli_json(capsys, "inbox")["discoveries"] == []
        world.say("2026-11-25T12:00:00+09:00", "緑茶を飲みながらギター")
        world.flush("2026-11-25T22:00:00+09:00")
        found[name] = world.cli_json(capsys, "inbox")["discoveries"]
        if name == "above":
            world.say("2026-11-26T12:00:00+09:00", "今日は休み")
            world.flush("2026-11-26T22:00:00+09:00")
            assert world.cli_json(capsys, "inbox")["discoveries"] == found[name]  # queued once
    [bridge] = found["above"]  # the strongest edge between the two old clusters
    assert (bridge["kind"], bridge["nodes"], bridge["run_id"]) == ("bridge", ["entity:ギター", "topic:drink"], 2)
    assert bridge["score"] == 0.3853
    assert found["below"] == []


def test_a_missing_member_of_a_cluster_is_queued_above_its_share(make_world, capsys):
    found = {}
    for name, share in (("above", 0.8), ("below", 0.8001)):
        world = make_world(name)
        world.app.settings.graph.missing_threshold = share
        world.oracle.rules = [Rule("ピアノ", "ギターとピアノとドラム", "hobby/music", "habit", 0.9), TEA,
                              Rule("バイオリン", "バイオリンを弾く", "hobby/violin", "habit", 0.9)]
        world.say("2026-11-23T21:00:00+09:00", "ギターとピアノとドラム、緑茶")
        for day in ("24", "25", "26"):
            world.say(f"2026-11-{day}T12:00:00+09:00", "緑茶を飲んだ")
        world.say("2026-11-26T20:00:00+09:00", "バイオリンも始めた")
        world.flush("2026-11-26T22:00:00+09:00")
        found[name] = world.cli_json(capsys, "inbox")["discoveries"]
    # Tea shares a session with 4 of the 5 music nodes (not the violin), each edge too weak to be drawn.
    [missing] = found["above"]
    assert missing["kind"] == "missing" and missing["nodes"][0] == "topic:drink" and missing["score"] == 0.8
    assert set(missing["nodes"][1:]) == {"topic:hobby", "entity:ギター", "entity:ピアノ", "entity:ドラム",
                                         "entity:バイオリン"}
    assert found["below"] == []


def test_inbox_json_is_a_list_of_sections_insights_gaps_lint_discoveries(world, capsys):
    four_sessions(world)
    inbox = world.cli_json(capsys, "inbox")
    assert list(inbox) == ["insights", "gaps", "lint", "discoveries"]
    assert [i["kind"] for i in inbox["insights"]] == ["insight"] and inbox["lint"] == []
    out = world.cli(capsys, "inbox")
    assert "Insights (1)" in out and "Lint findings (0)" in out and "Discoveries (0)" in out


def test_a_dry_run_leaves_no_graph(world, capsys):
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "ギターを弾いた")
    report = world.flush("2026-11-23T22:00:00+09:00", dry_run=True)
    assert report.background["graph"]["nodes"] == 2
    assert world.cli_json(capsys, "graph") == {"nodes": [], "edges": []}


def test_with_the_graph_off_a_flush_leaves_the_last_graph_as_it_was(world, capsys):
    world.oracle.rules = [GUITAR]
    world.say("2026-11-23T21:00:00+09:00", "ギターを弾いた")
    world.flush("2026-11-23T22:00:00+09:00")
    before = world.cli_json(capsys, "graph")
    world.app.settings.graph.enabled = False
    world.oracle.rules = [GUITAR, TEA]
    world.say("2026-11-24T21:00:00+09:00", "緑茶を飲んだ")
    report = world.flush("2026-11-24T22:00:00+09:00")
    assert "graph" not in report.background and world.cli_json(capsys, "graph") == before
    assert [n["id"] for n in before["nodes"]] == ["entity:ギター", "topic:hobby"]


def test_deleting_a_memory_takes_its_names_out_of_the_graph_and_the_discoveries(world, capsys):
    world.oracle.rules = [GUITAR, TEA, Rule("ミラ", "ミラとギターを弾いた", "friend/mira", "fact", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "ミラとギターを弾いた")
    world.say("2026-11-24T12:00:00+09:00", "ギターの練習、緑茶を飲んだ")
    world.flush("2026-11-24T22:00:00+09:00")
    assert any("entity:ミラ" in d["nodes"] for d in world.cli_json(capsys, "inbox")["discoveries"])
    world.memory.delete(world.mem("ミラとギターを弾いた").id)
    graph = world.cli_json(capsys, "graph")
    assert "entity:ミラ" not in {n["id"] for n in graph["nodes"]}
    assert all("ミラ" not in str(row) for table in ("graph_nodes", "graph_edges", "discoveries")
               for row in world.rows(table))
    world.say("2026-11-25T12:00:00+09:00", "今日もギター")
    world.flush("2026-11-25T22:00:00+09:00")
    assert "entity:ギター" in {n["id"] for n in world.cli_json(capsys, "graph")["nodes"]}  # still in another memory


def test_a_discovery_marked_read_stays_and_one_dismissed_leaves_the_inbox(world, capsys):
    world.app.settings.graph.two_hop_threshold = 1.0
    world.oracle.rules = [GUITAR, TEA, Rule("ミラ", "ミラとギターを弾いた", "friend/mira", "fact", 0.9)]
    world.say("2026-11-23T21:00:00+09:00", "ミラとギターを弾いた")
    world.say("2026-11-24T12:00:00+09:00", "ギターの練習、緑茶を飲んだ")
    world.flush("2026-11-24T22:00:00+09:00")
    first, second = world.cli_json(capsys, "discoveries")[:2]
    assert world.cli_json(capsys, "discoveries", "read", str(first["id"]))["status"] == "read"
    assert world.cli_json(capsys, "discoveries", "dismiss", str(second["id"]))["status"] == "dismissed"
    shown = {d["id"]: d["status"] for d in world.cli_json(capsys, "inbox")["discoveries"]}
    assert shown[first["id"]] == "read" and second["id"] not in shown
    assert {d["id"]: d["status"] for d in world.cli_json(capsys, "discoveries")}[second["id"]] == "dismissed"


def test_marking_a_discovery_that_does_not_exist_is_not_found(world):
    from monchat.core.background.inbox import Inbox
    from monchat.core.errors import NotFound
    with pytest.raises(NotFound, match="no discovery 99"):
        Inbox(world.app.store, world.app.settings, world.app.memory).mark("discovery", 99, "dismiss")
