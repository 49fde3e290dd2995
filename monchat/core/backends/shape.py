"""Does a JSON answer have the shape its schema asks for?

A server that ignores ``response_format`` (or only offers ``json_object``) returns JSON of
any shape. This checks the structure a caller relies on — types, required properties,
array items — and nothing finer: values (enums, lengths, item counts, evidence ids) are
the flush's to judge, which drops and records a bad item instead of refusing the answer.
"""

from __future__ import annotations

_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict, "array": list, "string": str, "boolean": bool,
    "integer": int, "number": (int, float),
}


def shape_problem(value, schema: dict, where: str = "the answer") -> str:
    """What is wrong with ``value``'s shape under ``schema``, or "" when nothing is."""
    expected = schema.get("type")
    if isinstance(expected, str) and expected in _TYPES:
        wrong_bool = isinstance(value, bool) and expected in ("integer", "number")
        if wrong_bool or not isinstance(value, _TYPES[expected]):
            return f"{where} should be {expected}, not {type(value).__name__}"
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                return f"{where} lacks {name!r}"
        for name, sub in (schema.get("properties") or {}).items():
            if name in value and value[name] is not None:
                problem = shape_problem(value[name], sub, f"{where}.{name}")
                if problem:
                    return problem
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            problem = shape_problem(item, schema["items"], f"{where}[{index}]")
            if problem:
                return problem
    return ""


def outline(schema: dict):
    """An example of the answer ``schema`` asks for, in few tokens: what a small context states in its system
    text instead of the whole schema (``{"items": [{"kind": "fact|habit", "score": 0.0}]}``); the server is
    still sent the schema itself."""
    kind = schema.get("type")
    if isinstance(schema.get("enum"), list):
        return "|".join(str(value) for value in schema["enum"])
    if kind == "object":
        return {name: outline(sub) for name, sub in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [outline(schema["items"])] if isinstance(schema.get("items"), dict) else []
    return {"number": 0.0, "integer": 0, "boolean": True}.get(str(kind), "...")
