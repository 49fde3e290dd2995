"""Knowledge lint's program-only rules: structure (step 1) and grounding (step 2).

Each rule reads memory rows (``store/lint.py``) and returns ``Finding``s; none asks a model.

Structure:
- ``orphan_successor``: ``superseded_by`` names a memory that does not exist.
- ``orphan_evidence``: a live memory's ledger cites message ids that are in no archive.
- ``cycle``: a supersede chain that comes back to where it started (A → B → A).
- ``malformed``: a live memory with empty text, a slot not shaped ``subject/attribute`` (lowercase
  ASCII words joined by ``/``, two to four parts), or a confidence or score outside 0…1.

Grounding, against the small canonical table below (live, well-formed memories only):
- ``slot_name``: a slot part that has a canonical name (``home/town`` → ``home/city``).
- ``value``: a slot whose family wants a kind of value the text does not have. The family is the
  attribute's (the slot's last part), else the subject's:

  | family | slot parts | the text must |
  |---|---|---|
  | date | birthday, anniversary, date, deadline, since, due | name a date: 2026-05-03, 5/3, 5月3日, "May 3", "3 May" |
  | place | city, country, hometown, prefecture, town, place, location, address, home | not be only a date or a number |
  | age | age | hold one number from 0 to 130 |
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SLOT_SHAPE = re.compile(r"^[a-z0-9][a-z0-9_.+-]*(/[a-z0-9][a-z0-9_.+-]*){1,3}$")

FAMILIES = {
    "date": {"birthday", "anniversary", "date", "deadline", "since", "due"},
    "place": {"city", "country", "hometown", "prefecture", "town", "place", "location", "address", "home"},
    "age": {"age"},
}
# Slot parts with a canonical name (what the filter prompt's examples use).
CANONICAL = {"birthdate": "birthday", "bday": "birthday", "birth_day": "birthday", "dob": "birthday",
             "town": "city", "residence": "home", "live": "home", "lives": "home", "living": "home",
             "years_old": "age", "drinks": "drink", "hobbies": "hobby", "job": "work", "occupation": "work"}
MONTHS = ("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|january|february|march|april|june|july|august|"
          "september|october|november|december")
DATE_VALUE = re.compile(
    r"\d{4}[-/.]\d{1,2}([-/.]\d{1,2})?|\b\d{1,2}/\d{1,2}\b|\d{1,2}\s*月(\s*\d{1,2}\s*日)?|\d{4}\s*年"
    rf"|\b({MONTHS})\.?\s+\d{{1,2}}\b|\b\d{{1,2}}(st|nd|rd|th)?\s+({MONTHS})\b", re.I)
NUMBER = re.compile(r"\d+")
ONLY_DATE_OR_NUMBER = re.compile(r"^[\d\s\-/.:年月日時分]+$")


@dataclass
class Finding:
    kind: str
    step: str
    memory_ids: list[str]
    text: str
    detail: dict = field(default_factory=dict)
    fixable: bool = False  # a high-impact fix exists (mark → recheck → apply through the review queue)

    @property
    def key(self) -> str:
        """What makes two runs' findings the same one (the ids of a cycle or pair are sorted)."""
        ids = self.memory_ids if self.kind == "orphan_successor" else sorted(self.memory_ids)
        return f"{self.kind}:{'+'.join(ids)}"


def family_of(slot: str) -> str | None:
    parts = slot.split("/")
    for part in (parts[-1], parts[0]):
        for family, names in FAMILIES.items():
            if part in names:
                return family
    return None


def malformed(row: dict) -> list[str]:
    """What is wrong with one memory's shape (empty list: well-formed)."""
    wrong = []
    if not (row["text"] or "").strip():
        wrong.append("empty text")
    if not SLOT_SHAPE.match(row["slot"] or ""):
        wrong.append(f"slot {row['slot']!r} is not subject/attribute")
    for name in ("confidence", "score"):
        value = row[name]
        if value is not None and not 0.0 <= value <= 1.0:
            wrong.append(f"{name} {value} is outside 0…1")
    return wrong


def structure(rows: list[dict], live: set[str], unarchived: dict[str, list[str]]) -> list[Finding]:
    """Step 1 over every memory row: orphans, cycles, malformed live items."""
    found: list[Finding] = []
    by_id = {r["id"]: r for r in rows}
    for row in rows:
        successor = row["superseded_by"]
        if successor and successor not in by_id:
            found.append(Finding("orphan_successor", "structure", [row["id"]],
                                 f"{row['id']} is replaced by {successor}, which does not exist",
                                 {"successor": successor}))
    for memory_id, missing in sorted(unarchived.items()):
        if memory_id in live:
            found.append(Finding("orphan_evidence", "structure", [memory_id],
                                 f"{memory_id} cites {len(missing)} message(s) that are in no archive",
                                 {"messages": missing}))
    seen_cycles: set[frozenset] = set()
    for row in rows:
        path, current = [], row["id"]
        while current in by_id and current not in path:
            path.append(current)
            current = by_id[current]["superseded_by"]
        if current in path:
            cycle = path[path.index(current):]
            if frozenset(cycle) not in seen_cycles:
                seen_cycles.add(frozenset(cycle))
                start = cycle.index(min(cycle))
                cycle = cycle[start:] + cycle[:start]
                found.append(Finding("cycle", "structure", cycle,
                                     "a supersede chain comes back to its start: " + " → ".join(cycle + cycle[:1])))
    for row in rows:
        if row["id"] in live and (wrong := malformed(row)):
            found.append(Finding("malformed", "structure", [row["id"]], f"{row['id']}: " + "; ".join(wrong),
                                 {"problems": wrong}))
    return found


def value_problem(family: str, text: str) -> str | None:
    """Why ``text`` is not a value of ``family`` (None: it is)."""
    if family == "date" and not DATE_VALUE.search(text):
        return "names no date"
    if family == "place" and ONLY_DATE_OR_NUMBER.match(text.strip()):
        return "is a date or a number, not a place"
    if family == "age":
        numbers = [int(n) for n in NUMBER.findall(text)]
        if len(numbers) != 1 or not 0 <= numbers[0] <= 130:
            return "holds no single age from 0 to 130"
    return None


def grounding(rows: list[dict]) -> list[Finding]:
    """Step 2 over live, well-formed memories: slot names and values against the table above."""
    found: list[Finding] = []
    for row in rows:
        parts = row["slot"].split("/")
        canonical = "/".join(CANONICAL.get(p, p) for p in parts)
        if canonical != row["slot"]:
            found.append(Finding("slot_name", "grounding", [row["id"]],
                                 f"{row['id']}: slot {row['slot']}'s canonical name is {canonical}",
                                 {"slot": row["slot"], "canonical": canonical}))
        family = family_of(canonical)
        problem = value_problem(family, row["text"]) if family else None
        if problem:
            found.append(Finding("value", "grounding", [row["id"]],
                                 f"{row['id']}: slot {row['slot']} wants a {family}, but the text {problem}",
                                 {"slot": row["slot"], "family": family}))
    return found
