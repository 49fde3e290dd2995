"""An eval set: read, checked against ``docs/eval-set.schema.json``, and named.

``--set`` is a file or the name of a bundled set (``ja-week``, ``en-week``: ``evalsets/`` at the top of the
repository, ``monchat/_data/evalsets`` in the wheel). A file that is not a set is an ``InputError`` (exit 2) that
says where it is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import InputError
from ..paths import resource_dir
from ..types import parse_ts


@dataclass(frozen=True)
class SetMessage:
    ts: str
    role: str
    text: str


@dataclass(frozen=True)
class Session:
    date: str
    messages: tuple[SetMessage, ...]

    @property
    def ends(self) -> datetime:
        """When the session's last message was said: it is flushed then."""
        return max(parse_ts(m.ts) for m in self.messages)


@dataclass(frozen=True)
class Fact:
    id: str
    kind: str  # present | retired | never
    words: tuple[str, ...]
    unless: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answer_words: tuple[str, ...] = ()
    abstain: bool = False


@dataclass(frozen=True)
class EvalSet:
    name: str
    language: str
    sessions: tuple[Session, ...]
    facts: tuple[Fact, ...]
    questions: tuple[Question, ...]
    source: str = ""
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def last_said(self) -> datetime:
        return max(s.ends for s in self.sessions)


def bundled_names() -> list[str]:
    return sorted(p.stem for p in resource_dir("evalsets").glob("*.json"))


def schema_path() -> Path:
    """``docs/eval-set.schema.json`` (in the wheel: ``monchat/_data/eval-set.schema.json``)."""
    installed = Path(__file__).resolve().parents[2] / "_data" / "eval-set.schema.json"
    return installed if installed.is_file() else Path(__file__).resolve().parents[3] / "docs" / "eval-set.schema.json"


def resolve(name_or_path: str) -> Path:
    """A bundled set's file by name, else the file named."""
    bundled = resource_dir("evalsets") / f"{name_or_path}.json"
    if "/" not in name_or_path and not name_or_path.endswith(".json") and bundled.is_file():
        return bundled
    path = Path(name_or_path)
    if not path.is_file():
        raise InputError(f"No eval set {name_or_path!r}: not a file, nor a bundled set.",
                         f"Bundled sets: {', '.join(bundled_names())}; or give a file (docs/eval.md).")
    return path


def read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path} cannot be read as JSON: {exc}", "Give a UTF-8 JSON file.") from None


def load_set(name_or_path: str) -> EvalSet:
    """The set, checked. Raises InputError for a file that is not a valid set."""
    path = resolve(name_or_path)
    data = read_json(path)
    check(data, str(path))
    assert isinstance(data, dict)
    sessions = tuple(Session(s["date"], tuple(SetMessage(m["ts"], m["role"], m["text"]) for m in s["messages"]))
                     for s in data["sessions"])
    facts = tuple(Fact(f["id"], f["kind"], tuple(f["words"]), tuple(f.get("unless", ()))) for f in data["facts"])
    questions = tuple(Question(q["id"], q["question"], tuple(q.get("answer_words", ())), bool(q.get("abstain")))
                      for q in data["questions"])
    return EvalSet(data["name"], data["language"], sessions, facts, questions, source=str(path))


def check(data: object, where: str) -> None:
    """The schema, then what a schema cannot say: times that parse, ids used once. Raises InputError."""
    import jsonschema  # type: ignore[import-untyped]  # the mcp SDK's dependency; imported when a set is read

    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        at = "/".join(str(p) for p in first.absolute_path) or "(top)"
        raise InputError(f"{where} is not an eval set: at {at}: {first.message}"
                         + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
                         "See docs/eval.md and docs/eval-set.schema.json.")
    assert isinstance(data, dict)
    for i, session in enumerate(data["sessions"]):
        for j, m in enumerate([{"ts": session["date"]}, *session["messages"]]):
            try:
                parse_ts(m["ts"])
            except ValueError as exc:
                raise InputError(f"{where}: sessions/{i}/messages/{j - 1 if j else '(date)'}: {exc}",
                                 "Times are ISO-8601 with an offset (docs/eval.md).") from None
    for key in ("facts", "questions"):
        ids = [item["id"] for item in data[key]]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise InputError(f"{where}: {key} ids used more than once: {', '.join(twice)}", "Give each its own id.")
