"""Scripted filter-persona answers for flushes driven through the GUI."""

from __future__ import annotations

import json

from monchat.core.memory.guard import share

def NO_ITEMS(system, turns, schema) -> dict:  # noqa: N802 - reads as the constant it was
    """Nothing found: no items for a filter, no insight for reflect, a page that is the day's first message
    (citing it: a page must rest on the day's words) for the diary, no contradiction for lint."""
    properties = schema.get("properties", {})
    if "contradictions" in properties:
        return {"contradictions": []}
    if "insights" in properties:
        return {"insights": [], "gaps": []}
    if "cited" in properties:
        first = next(json.loads(raw) for raw in turns[-1].content.splitlines() if raw.startswith("{"))
        return {"text": first["text"], "cited": [first["id"]]}
    return {"items": []}


def user_lines(turns) -> list[dict]:
    """The user lines of a filter call's log chunk (one JSON object a line)."""
    lines = [json.loads(raw) for raw in turns[-1].content.splitlines() if raw.startswith("{")]
    found = [line for line in lines if line["role"] == "user"]
    assert found, "the filter call shows no user line"
    return found


def first_user_line(turns) -> str:
    """The local id of the first user line in a filter call's log chunk."""
    return user_lines(turns)[0]["id"]


def item_answer(text: str, slot: str, kind: str = "explicit", score: float = 0.9):
    """A structured answer citing the first user line that shares words with ``text`` (else the first)."""
    def answer(system, turns, schema):
        lines = user_lines(turns)
        cited = next((line for line in lines if share(text, line["text"]) > 0), lines[0])
        return {"items": [{"reason": "the user said so", "text": text, "slot": slot, "kind": kind,
                           "score": score, "evidence": [cited["id"]]}]}
    return answer
