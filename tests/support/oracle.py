"""A deterministic "oracle" backend for flush tests.

It plays the LLM's two parts in a flush from tables a test writes:

- **Filter calls** (the schema asks for ``items``): it reads the log lines of the
  user turn (one JSON object a line: id, role, when, text) and applies each
  ``Rule`` of the persona that is asking: every line whose text contains
  ``rule.contains`` (and whose role is in ``rule.roles``) is cited, and the rule
  becomes one item citing all of them.
- **Reflect calls** (the schema asks for ``insights``): ``reflection`` (a dict, or a function of the
  user turn) when a test set one, else one insight on the first of the "Known slots" and no gap.
- **Diary calls** (the schema asks for ``cited``): a page that is the day and the messages' texts
  joined, citing every message (or ``diary(day, lines)`` when a test set one).
- **Lint calls** (the schema asks for ``contradictions``): ``lint`` (a dict, or a function of the user
  turn) when a test set one, else no contradiction.
- **Digest calls** (the schema asks for ``covers``): ``digest`` (a dict, or ``f(slot, memories)`` with
  memories ``[(id, text)]``) when a test set one, else the memories' texts joined, covering every id.
- **Judge calls** (the schema asks for ``verdicts``): each pair
  ``existing …: OLD`` / ``new …: NEW`` is answered from ``judgements`` keyed by
  ``(OLD, NEW)``; ``(None, NEW)`` and ``(OLD, None)`` are wildcards; anything
  else gets ``default``.

Same input, same output: no randomness, rules applied in the order given.
``Oracle`` is a real ``Backend`` (a ``ScriptedBackend`` whose default reply is
the oracle), so anything a test ``enqueue()``s is answered first; ``respond()``
is the pure part, also used by the loopback Ollama server of the CLI tests.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Callable

from monchat.core.types import Usage
from tests.support.scripted import ScriptedBackend

PAIR = re.compile(r"^(p\d+):\n  existing \((.*?)\): (.*?)\n  new \((.*?)\): (.*?)(?=\np\d+:\n|\n*\Z)",
                  re.M | re.S)
PERSONA_NAME = re.compile(r'^The part you play: "(.*?)"', re.M)


@dataclass(frozen=True)
class Rule:
    """One thing a filter persona "notices": lines containing ``contains`` become one item."""

    contains: str
    text: str
    slot: str
    kind: str = "fact"
    score: float = 0.9
    persona: str = "base"
    roles: tuple = ("user",)  # roles of the lines it may cite
    extra: tuple = ()  # ids cited besides the matched lines: "mN" is the N-th message a World said
    #                  (see ``World.line_aliases``); others, e.g. "m99" in a short log, do not exist
    cite_matched: bool = True  # False: cite only ``extra`` (the rule still needs a matching line)
    reason: str = "oracle rule"


@dataclass(frozen=True)
class Judgement:
    verdict: str
    confidence: float = 0.9
    merged_text: str = ""
    reasoning: str = "oracle judgement"


@dataclass
class LogLine:
    local_id: str
    role: str
    when: str
    text: str


@dataclass
class JudgedPair:
    pair: str
    old: str
    new: str
    verdict: str
    confidence: float


def parse_log(user_turn: str) -> list[LogLine]:
    """The log lines of a filter call's user turn: one JSON object a line."""
    lines = []
    for raw in user_turn.splitlines():
        if raw.startswith("{"):
            line = json.loads(raw)
            lines.append(LogLine(line["id"], line["role"], line["when"], line["text"]))
    return lines


def parse_pairs(user_turn: str) -> list[tuple[str, str, str]]:
    """(pair id, old text, new text) of a judge call's user turn."""
    return [(m.group(1), m.group(3), m.group(5)) for m in PAIR.finditer(user_turn)]


def persona_of(user_turn: str) -> str:
    """The filter persona id from the part it plays (after the log): the id in brackets ending its name,
    else the name in lower case (a shipped persona's English name is its id: "Base" is base)."""
    found = PERSONA_NAME.search(user_turn)
    if not found:
        return ""
    name = found.group(1)
    bracket = re.search(r"\(([a-z0-9_-]+)\)\s*$", name)
    return bracket.group(1) if bracket else name.lower()


def kind_of(schema: dict) -> str:
    """Which flush call a structured request is, from its schema's properties."""
    properties = (schema or {}).get("properties", {})
    return ("judge" if "verdicts" in properties else "reflect" if "insights" in properties
            else "diary" if "cited" in properties else "lint" if "contradictions" in properties
            else "digest" if "covers" in properties else "filter")


def _as_judgement(value) -> Judgement:
    if isinstance(value, Judgement):
        return value
    if isinstance(value, str):
        return Judgement(value)
    return Judgement(*value)


class Oracle(ScriptedBackend):
    """A scripted backend that answers filter and judge calls from a test's tables.

    Args:
        rules: ``Rule``s for filter calls.
        judgements: ``{(old, new): Judgement | "VERDICT" | (verdict, confidence[, merged])}``.
        default: the verdict of a pair no judgement names (unrelated things coexist).
        chat_reply: the text of every chat reply.
        on_call: ``f(n, kind)`` called before the n-th structured call (1-based) is answered;
            ``kind`` is "filter" or "judge". It may raise (a failing backend) or kill the process.
        context: the context length it reports (small values make the flush chunk the logs).
    """

    name = "oracle"
    PARALLEL_CALLS = 4  # its answers depend only on the request: flushes run personas side by side

    def __init__(self, rules=(), judgements: dict | None = None, *, default=Judgement("COEXIST", 0.95),
                 chat_reply: str = "うん、覚えておくね。", model: str = "oracle-1",
                 on_call: Callable[[int, str], None] | None = None, context: int = 8192) -> None:
        super().__init__(model)
        self.context = context
        self.rules: list[Rule] = list(rules)
        self.judgements: dict = dict(judgements or {})
        self.default = _as_judgement(default)
        self.chat_reply = chat_reply
        self.on_call = on_call
        self.json_calls = 0
        self.filter_calls: list[dict] = []  # {"persona", "system", "user", "items"}
        self.judge_calls: list[dict] = []  # {"system", "user", "pairs": [JudgedPair], "schema"}
        self.reflect_calls: list[dict] = []  # {"system", "user", "answer"}
        self.diary_calls: list[dict] = []  # {"day", "lines", "answer"}
        self.reflection = None  # a reflect answer (dict, or f(user_turn) -> dict); None: the default
        self.diary = None  # f(day, lines) -> a diary answer; None: the default
        self.lint_calls: list[dict] = []  # {"system", "user", "answer"}
        self.lint = None  # a lint answer (dict, or f(user_turn) -> dict); None: no contradiction
        self.digest_calls: list[dict] = []  # {"slot", "memories", "answer"}
        self.digest = None  # a digest answer (dict, or f(slot, memories) -> dict); None: the default
        self.aliases: Callable[[], dict[str, str]] = dict  # "m3" in a rule's extra → a real line id
        self._oracle_lock = threading.Lock()
        self.default_reply = self._answer

    # ---- the pure part ----------------------------------------------------
    def respond(self, system: str, user_turn: str, schema: dict) -> dict:
        """The answer to one structured call (records it, calls ``on_call``)."""
        kind = kind_of(schema)
        with self._oracle_lock:
            self.json_calls += 1
            n = self.json_calls
        if self.on_call is not None:
            self.on_call(n, kind)
        if kind == "judge":
            answer = self._judge(system, user_turn)
            self.judge_calls[-1]["schema"] = schema
            return answer
        if kind == "reflect":
            answer = self._reflect(system, user_turn)
            self.reflect_calls[-1]["schema"] = schema
            return answer
        if kind == "diary":
            return self._diary(user_turn)
        if kind == "lint":
            answer = self.lint(user_turn) if callable(self.lint) else (self.lint or {"contradictions": []})
            self.lint_calls.append({"system": system, "user": user_turn, "answer": answer})
            return answer
        if kind == "digest":
            return self._digest(user_turn)
        return self._filter(system, user_turn)

    def _filter(self, system: str, user_turn: str) -> dict:
        persona = persona_of(user_turn)
        lines = parse_log(user_turn)
        items = []
        for rule in self.rules:
            if rule.persona != persona:
                continue
            matched = [line for line in lines if line.role in rule.roles and rule.contains in line.text]
            if not matched:
                continue
            evidence = [line.local_id for line in matched] if rule.cite_matched else []
            aliases = self.aliases()
            evidence += [aliases.get(local, local) for local in rule.extra]
            items.append({"reason": rule.reason, "text": rule.text, "slot": rule.slot, "kind": rule.kind,
                          "score": rule.score, "evidence": evidence})
        self.filter_calls.append({"persona": persona, "system": system, "user": user_turn, "items": items})
        return {"items": items}

    def _reflect(self, system: str, user_turn: str) -> dict:
        if self.reflection is not None:
            answer = self.reflection(user_turn) if callable(self.reflection) else self.reflection
        else:
            known = re.search(r"^Known slots: (.*)$", user_turn, re.M)
            slots = [s for s in (known.group(1).split(", ") if known else []) if s]
            answer = {"insights": [{"text": f"{slots[0]} came up often", "slots": [slots[0]]}] if slots else [],
                      "gaps": []}
        self.reflect_calls.append({"system": system, "user": user_turn, "answer": answer})
        return answer

    def _diary(self, user_turn: str) -> dict:
        day = re.search(r"^Day: (\S+)", user_turn, re.M).group(1)
        lines = [json.loads(raw) for raw in user_turn.splitlines() if raw.startswith("{")]
        if self.diary is not None:
            answer = self.diary(day, lines)
        else:
            answer = {"text": f"{day}: " + " / ".join(line["text"] for line in lines),
                      "cited": [line["id"] for line in lines]}
        self.diary_calls.append({"day": day, "lines": lines, "answer": answer})
        return answer

    def _digest(self, user_turn: str) -> dict:
        slot = re.search(r"^Slot: (.*)$", user_turn, re.M).group(1)
        memories = [(m.group(1), json.loads(m.group(2))) for m in re.finditer(r"^- (\S+): (\".*\")$", user_turn, re.M)]
        if self.digest is not None:
            answer = self.digest(slot, memories) if callable(self.digest) else self.digest
        else:
            answer = {"text": " / ".join(text for _id, text in memories), "covers": [mid for mid, _t in memories]}
        self.digest_calls.append({"slot": slot, "memories": memories, "answer": answer})
        return answer

    def judgement_for(self, old: str, new: str) -> Judgement:
        for key in ((old, new), (None, new), (old, None)):
            if key in self.judgements:
                value = self.judgements[key]
                return _as_judgement(value(old, new) if callable(value) else value)
        return self.default

    def _judge(self, system: str, user_turn: str) -> dict:
        verdicts, judged = [], []
        for pair_id, old, new in parse_pairs(user_turn):
            j = self.judgement_for(old, new)
            verdicts.append({"pair": pair_id, "reasoning": j.reasoning, "verdict": j.verdict,
                             "confidence": j.confidence, "merged_text": j.merged_text})
            judged.append(JudgedPair(pair_id, old, new, j.verdict, j.confidence))
        self.judge_calls.append({"system": system, "user": user_turn, "pairs": judged})
        return {"verdicts": verdicts}

    # ---- the Backend part -------------------------------------------------
    def context_length(self) -> int:
        return self.context

    def _answer(self, system, turns, schema) -> dict:
        user_turn = "\n".join(t.content for t in turns if t.role == "user")
        return self.respond(system, user_turn, schema)

    def _stream(self, system, turns, temperature, reply):
        with self._lock:
            scripted = bool(self.queue)
        if scripted:  # a test queued a chat answer (text, pieces or an error): play it as scripted
            yield from super()._stream(system, turns, temperature, reply)
            return
        self.history.append(("chat", system, list(turns), None))
        yield self.chat_reply
        reply.usage = Usage(prompt_tokens=10, output_tokens=len(self.chat_reply))

    @property
    def judged(self) -> list[JudgedPair]:
        return [p for call in self.judge_calls for p in call["pairs"]]
