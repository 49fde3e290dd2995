"""``monchat eval`` (issue 42): the bundled sets through the scripted oracle (full marks, exactly), a hostile
backend (nothing present, every trap caught), two runs field by field, the user's data folder hashed before and
after, a bad set refused with exit 2."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from monchat.cli import main as cli_main
from monchat.core.evaluation.sets import load_set
from tests.support.oracle import Judgement, Oracle, Rule

# What the oracle's lifestyle filter notices in en-week, and the texts it proposes.
EN_RULES = [("I live in Leeds", "Lives in Leeds", "user/home", "base"), ("York", "Lives in York (moved from Leeds)",
                                                                         "user/home", "base"),
            ("Biscuit", "Has a dog, Biscuit", "user/pet", "lifestyle"),
            ("drink coffee every", "Drinks coffee every morning", "user/drink", "lifestyle"),
            ("quit coffee", "Quit coffee; drinks rooibos tea instead", "user/drink", "lifestyle"),
            ("ooibos", "Drinks rooibos tea", "user/tea", "lifestyle"),
            ("allergic to peanuts", "Allergic to peanuts", "user/health", "lifestyle"),
            ("as a nurse", "Works as a nurse", "user/work", "project"),
            ("learning Spanish", "Learning Spanish", "user/learning", "project"),
            ("I drive a Vauxhall", "Drives a Vauxhall", "user/commute", "project"),
            ("sold the Vauxhall", "Sold the Vauxhall; cycles to work", "user/commute", "project"),
            ("I go to the gym every Monday", "Goes to the gym on Mondays", "user/exercise", "project"),
            ("swimming on Mondays", "Switched from the gym to swimming on Mondays", "user/exercise", "project")]
EN_SUPERSEDES = [("Lives in Leeds", "Lives in York (moved from Leeds)"),
                 ("Drinks coffee every morning", "Quit coffee; drinks rooibos tea instead"),
                 ("Drives a Vauxhall", "Sold the Vauxhall; cycles to work"),
                 ("Goes to the gym on Mondays", "Switched from the gym to swimming on Mondays")]


class AnsweringOracle(Oracle):
    """The oracle, whose chat reply says a question's answer words when the memory in its system prompt holds them
    (so a question is right only through memory), and that it does not know otherwise."""

    def __init__(self, eval_set, **kwargs) -> None:
        super().__init__(**kwargs)
        self.expected = {q.question: q.answer_words for q in eval_set.questions}
        self.unknown = "わからない" if eval_set.language == "ja" else "I don't know."

    def _stream(self, system, turns, temperature, reply):
        question = turns[-1].content
        words = self.expected.get(question, ())
        self.chat_reply = (" ".join(words) if words and all(w.casefold() in system.casefold() for w in words)
                           else self.unknown)
        yield from super()._stream(system, turns, temperature, reply)


def en_oracle(eval_set) -> Oracle:
    rules = [Rule(contains, text, slot, persona=persona) for contains, text, slot, persona in EN_RULES]
    return AnsweringOracle(eval_set, rules=rules,
                           judgements={pair: Judgement("SUPERSEDE", 0.95) for pair in EN_SUPERSEDES})


def folder_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def run_eval(argv, backend, capsys) -> tuple[int, dict | str]:
    code = cli_main.main(["eval", *argv], pinned_backend=backend)
    out = capsys.readouterr()
    if "--json" in argv and code == 0:
        return code, json.loads(out.out)
    return code, out.out + out.err


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    home = tmp_path / "user"
    monkeypatch.setenv("MONCHAT_HOME", str(home))
    return home


def test_the_oracle_scores_full_marks_on_en_week_and_the_users_folder_is_untouched(user_home, capsys):
    from monchat.app import build_app
    build_app(str(user_home)).close()  # the user's own monchat, with its database
    before = folder_digest(user_home)
    eval_set = load_set("en-week")
    code, result = run_eval(["--set", "en-week", "--json"], en_oracle(eval_set), capsys)
    assert code == 0, result
    assert folder_digest(user_home) == before
    assert isinstance(result, dict)
    wrong = [f for f in result["facts"] if not f["right"]]
    assert wrong == []
    assert result["present"] == {"kept": 6, "of": 6} and result["retired"] == {"retired": 4, "of": 4}
    assert result["never"] == {"clean": 4, "of": 4} and result["invented"] == 0
    assert result["questions"]["right"] == result["questions"]["of"] == 6
    assert set(result) >= {"set", "backend", "model", "now", "present", "retired", "never", "invented", "questions",
                           "review", "calls", "tokens", "elapsed_s", "started", "finished", "facts"}
    assert result["review"]["flushes"] == 5 and result["calls"] > 0


def test_two_runs_agree_field_by_field_but_for_the_clock(user_home, capsys):
    eval_set = load_set("en-week")
    runs = [run_eval(["--set", "en-week", "--json", "--now", "2026-11-23T09:00:00+00:00"], en_oracle(eval_set),
                     capsys)[1] for _ in range(2)]
    first, second = ({k: v for k, v in run.items() if k not in ("elapsed_s", "started", "finished", "saved")}
                     for run in runs)
    assert first == second
    assert first["now"].startswith("2026-11-23T09:00:00")


def test_a_hostile_backend_keeps_nothing_present_and_never_catches_it(user_home, capsys):
    """Proposals citing line ids no log has, or only the assistant's lines."""
    eval_set = load_set("en-week")
    rules = [Rule("cello", "Plays the cello", "user/music", persona="lifestyle", roles=("assistant",)),
             Rule("live in Leeds", "Lives in York", "user/home", persona="lifestyle", cite_matched=False,
                  extra=("m999", "zz-unknown")),
             Rule("dog Biscuit", "Has a dog named Biscuit", "user/pet", persona="lifestyle", cite_matched=False,
                  extra=("nope",))]
    code, result = run_eval(["--set", "en-week", "--json"], AnsweringOracle(eval_set, rules=rules), capsys)
    assert code == 0, result
    assert isinstance(result, dict)
    assert result["present"]["kept"] == 0
    # the guard drops every such proposal: no trap reaches memory, nothing rests on no user line (and had one got
    # in, ``never`` and ``invented`` would say so: test_the_program_scores_each_kind_of_fact)
    assert result["never"] == {"clean": 4, "of": 4} and result["invented"] == 0
    assert result["questions"]["right"] == 1  # only the abstention: it remembers nothing to answer with


def test_a_bad_set_is_refused_with_exit_2_saying_where(user_home, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    data = json.loads(Path(load_set("en-week").source).read_text(encoding="utf-8"))
    data["facts"][0]["kind"] = "maybe"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out = run_eval(["--set", str(bad)], Oracle(), capsys)
    assert code == 2 and "facts/0/kind" in out
    bad.write_text("{not json", encoding="utf-8")
    code, out = run_eval(["--set", str(bad)], Oracle(), capsys)
    assert code == 2 and "JSON" in out
    code, out = run_eval(["--set", "no-such-set"], Oracle(), capsys)
    assert code == 2 and "ja-week" in out
    code, out = run_eval(["--set", "en-week", "--now", "yesterday"], Oracle(), capsys)
    assert code == 2 and "--now" in out
    code, out = run_eval([], Oracle(), capsys)
    assert code == 2 and "--set" in out
    bad.write_text(json.dumps({"not": "a list"}), encoding="utf-8")
    code, out = run_eval(["--set", str(bad), "--format", "longmemeval"], Oracle(), capsys)
    assert code == 2 and "LongMemEval" in out


def test_the_bundled_sets_are_what_the_issue_asks(user_home):
    for name in ("ja-week", "en-week"):
        s = load_set(name)
        messages = sum(len(session.messages) for session in s.sessions)
        kinds = [f.kind for f in s.facts]
        assert 20 <= messages <= 40 and kinds.count("present") >= 5 and kinds.count("retired") >= 4
        assert kinds.count("never") >= 4 and len(s.questions) >= 5 and any(q.abstain for q in s.questions)
        said = " ".join(m.text for session in s.sessions for m in session.messages)
        assert all(all(w in said for w in f.words) for f in s.facts), name  # every fact's words are in the set
        assert re.search(r"```", said)  # the code-block trap


# ---- LongMemEval (--format longmemeval) ------------------------------------------------------------------------
LME = Path(__file__).parent / "data" / "longmemeval_tiny.json"


class LmeOracle(Oracle):
    """Remembers where the user lives; answers from the memory in its system prompt only."""

    def __init__(self) -> None:
        super().__init__(rules=[Rule("I live in Leeds", "Lives in Leeds", "user/home", persona="lifestyle"),
                                Rule("moved to York", "Lives in York, moved there", "user/home", persona="lifestyle")],
                         judgements={("Lives in Leeds", "Lives in York, moved there"): Judgement("SUPERSEDE", 0.95)})

    def _stream(self, system, turns, temperature, reply):
        self.chat_reply = "York" if "York" in system else "I don't know."
        yield from super()._stream(system, turns, temperature, reply)


def test_the_longmemeval_reader_scores_its_synthetic_file_per_type(user_home, capsys):
    code, result = run_eval(["--set", str(LME), "--format", "longmemeval", "--json"], LmeOracle(), capsys)
    assert code == 0, result
    assert isinstance(result, dict)
    assert result["types"]["knowledge-update"] == {"right": 1, "of": 1, "not_scored": 0}
    assert result["types"]["single-session-user"] == {"right": 1, "of": 1, "not_scored": 0}  # _abs: abstained
    assert result["types"]["temporal-reasoning"]["not_scored"] == 1  # a long answer is not scored by program
    assert result["questions"]["right"] == 2 and result["questions"]["of"] == 2
    code, limited = run_eval(["--set", str(LME), "--format", "longmemeval", "--json", "--types", "knowledge-update",
                              "--limit", "1"], LmeOracle(), capsys)
    assert isinstance(limited, dict) and list(limited["types"]) == ["knowledge-update"]


def test_the_longmemeval_reader_never_reads_the_gold_labels(user_home, tmp_path, capsys):
    """The same file with answer_session_ids and has_answer pointing elsewhere (a run that read them would import
    only those sessions, or those lines, and answer otherwise) gives the same result."""
    from monchat.core.evaluation.longmemeval import read_questions
    data = json.loads(LME.read_text(encoding="utf-8"))
    assert any("has_answer" in t for q in data for s in q["haystack_sessions"] for t in s)
    for q in data:
        q["answer_session_ids"] = ["nowhere"]
        for session in q["haystack_sessions"]:
            for t in session:
                t["has_answer"] = not t.get("has_answer", False)
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(data), encoding="utf-8")
    results = []
    for path in (LME, moved):
        code, result = run_eval(["--set", str(path), "--format", "longmemeval", "--json"], LmeOracle(), capsys)
        assert code == 0 and isinstance(result, dict)
        results.append({k: v for k, v in result.items() if k not in ("elapsed_s", "started", "finished", "saved", "set")})
    assert results[0] == results[1]
    parsed = json.dumps(read_questions(moved))
    assert "answer_session_ids" not in parsed and "has_answer" not in parsed  # dropped as the file is parsed


def test_runs_are_saved_beside_the_data_folder_and_listed(user_home, tmp_path, capsys):
    eval_set = load_set("en-week")
    keep = tmp_path / "kept"
    code, result = run_eval(["--set", "en-week", "--json", "--keep", str(keep)], en_oracle(eval_set), capsys)
    assert code == 0 and isinstance(result, dict)
    assert (keep / "home" / "monchat.db").is_file()  # --keep: the scratch folder stays for inspection
    from monchat.app import build_app
    kept = build_app(str(keep / "home"))
    try:  # each session was flushed at its own time (the one clock): nothing is dated by the wall clock
        memories = kept.memory.list(all=True)
        assert memories and all(m.created_at and m.created_at.startswith("2026-11-") for m in memories)
        assert {r["started_at"][:10] for r in kept.flush.runs()} == {"2026-11-16", "2026-11-17", "2026-11-18",
                                                                      "2026-11-20", "2026-11-22"}
    finally:
        kept.close()
    assert Path(result["saved"]).parent == user_home.parent / "user-eval" and not user_home.exists()
    code, out = run_eval(["--set", "en-week", "--keep", str(keep)], en_oracle(eval_set), capsys)
    assert code == 2 and "not empty" in out
    code, listed = run_eval(["results", "--json"], Oracle(), capsys)
    assert code == 0 and isinstance(listed, list) and [r["set"] for r in listed] == ["en-week"]
    code, out = run_eval(["results"], Oracle(), capsys)
    assert code == 0 and "en-week" in out and "6/6" in out and "oracle-1" in out


def test_several_models_side_by_side_in_one_table(user_home, capsys):
    eval_set = load_set("en-week")
    code, out = run_eval(["--set", "en-week", "--models", "a,b"], en_oracle(eval_set), capsys)
    assert code == 0 and isinstance(out, str)
    table = [line for line in out.splitlines() if line.startswith(("set ", "en-week "))]
    assert len(table) == 3 and table[0].split()[:4] == ["set", "backend", "model", "kept"]


def test_a_judges_verdict_is_saved_beside_the_programs(user_home, capsys):
    eval_set = load_set("en-week")
    code, result = run_eval(["--set", "en-week", "--json", "--judge", "oracle-judge"], en_oracle(eval_set), capsys)
    assert code == 0 and isinstance(result, dict)
    asked = result["questions"]["asked"]
    assert all("judge" in a and a["judge"] in (True, False, None) for a in asked)
    assert result["questions"]["right"] == 6  # the program's verdict stands whatever the judge says


def test_the_program_scores_each_kind_of_fact():
    """What a hostile backend would leave behind is caught: a trap's words in any memory, history included;
    a retired fact still active unless the memory says it ended; an active memory resting on no user line."""
    from monchat.core.evaluation.score import Memory, abstains, score_facts
    from monchat.core.evaluation.sets import Fact
    facts = [Fact("p", "present", ("York",)), Fact("r", "retired", ("coffee",), ("quit",)),
             Fact("r2", "retired", ("Leeds",)), Fact("n", "never", ("cello",))]
    memories = [Memory("m1", "Lives in york", "active", True, True),
                Memory("m2", "Quit coffee", "active", True, True),
                Memory("m3", "Lives in Leeds", "candidate", True, True),  # recent: still active
                Memory("m4", "Plays the cello", "superseded", False, False),  # history, and no user line
                Memory("m5", "Likes jazz", "active", True, False)]
    scored = score_facts(facts, memories)
    verdicts = {f["id"]: (f["verdict"], f["memories"]) for f in scored["facts"]}
    assert verdicts == {"p": ("kept", ["m1"]), "r": ("retired", []), "r2": ("still active", ["m3"]),
                        "n": ("remembered", ["m4"])}
    assert scored["present"] == {"kept": 1, "of": 1} and scored["retired"] == {"retired": 1, "of": 2}
    assert scored["never"] == {"clean": 0, "of": 1} and scored["invented"] == 1
    assert abstains("I don\u2019t know that yet.", "en") and abstains("それは聞いてないなあ", "ja")
    assert not abstains("You live in York.", "en")


def test_backend_and_model_are_taken_after_eval_as_well():
    parse = cli_main.build_parser().parse_args
    after = parse(["eval", "--set", "ja-week", "--backend", "embedded", "--model", "m"])
    before = parse(["--backend", "embedded", "--model", "m", "eval", "--set", "ja-week"])
    assert (after.backend, after.model) == (before.backend, before.model) == ("embedded", "m")
    assert parse(["--backend", "ollama", "eval", "--set", "x"]).backend == "ollama"  # not reset by eval's own option


def test_en_week_through_a_real_client_and_a_loopback_server(user_home, monkeypatch, capsys):
    """``--backend openai``: the real ``openai`` client against a loopback server answering as the oracle would;
    the facts score as through the pinned oracle (the chat replies are the server's fixed text)."""
    from tests.fakes.fake_openai import running_fake_openai
    from tests.test_cli_openai import answered_by
    with running_fake_openai() as server:
        server.structured_reply = answered_by(en_oracle(load_set("en-week")))
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        code, result = run_eval(["--set", "en-week", "--json", "--backend", "openai", "--model",
                                 "qwen2.5-7b-instruct"], None, capsys)
        assert server.errors == []
    assert code == 0, result
    assert isinstance(result, dict) and (result["backend"], result["model"]) == ("openai", "qwen2.5-7b-instruct")
    assert (result["present"], result["retired"], result["never"], result["invented"]) == (
        {"kept": 6, "of": 6}, {"retired": 4, "of": 4}, {"clean": 4, "of": 4}, 0)
    assert result["questions"]["right"] == 0 and result["calls"] > 30  # "Hello" answers nothing, nor abstains
