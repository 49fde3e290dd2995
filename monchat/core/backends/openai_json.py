"""Structured output from an OpenAI-compatible server: the ``response_format`` it takes, found once.

- A structured answer is asked for with ``response_format: json_schema``. A server without schema support
  refuses it with an error whose text names ``response_format``/``json_schema`` — LM Studio a 400, a strict
  validator a 422, llama-cpp-python's ``llama_cpp.server`` a 500 with a pydantic traceback — whatever the status,
  the same request goes once as ``{"type": "json_object", "schema": …}`` (llama.cpp servers constrain the answer
  to the schema; others ignore the key) with the schema also stated in the system text, and the mode is
  remembered (state ``openai.json_mode.<base url>``); such a refusal is never retried as transient.
- ``openai.json_mode`` forces ``json_object`` (or ``json_schema``, never falling back).
- Until one answer told which mode the server takes, structured calls ask one at a time (a flush runs several
  side by side), so the fallback is found once, not per call.
- In both modes the answer's shape is checked (``shape.shape_problem``): a wrong shape is a ``MalformedReply``
  the flush reads again in halves.
- At a small context the schema in the system text is a short example of the answer (``shape.outline``), a
  quarter of the schema's tokens.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Callable

import openai

from ..errors import MalformedReply
from .base import parse_json_object
from .openai_errors import error_text, rejects_schema
from .shape import outline, shape_problem

log = logging.getLogger(__name__)

JSON_MODE_KEY = "openai.json_mode.{url}"
AUTO, SCHEMA, OBJECT = "auto", "json_schema", "json_object"
JSON_MODES = (AUTO, SCHEMA, OBJECT)


def response_format(mode: str, schema: dict) -> dict:
    """What a request in ``mode`` sends as ``response_format``: the schema either way."""
    if mode == SCHEMA:
        return {"type": SCHEMA, "json_schema": {"name": "answer", "schema": schema, "strict": False}}
    return {"type": OBJECT, "schema": schema}


def schema_in_system(system: str, schema: dict, small: bool) -> str:
    """The system text with the schema stated, for a server that only reads that; at a ``small`` context an
    example of the answer's shape instead."""
    if small:
        line = f"Answer with one JSON object like: {json.dumps(outline(schema), ensure_ascii=False)}"
    else:
        line = f"Answer with one JSON object matching this schema: {json.dumps(schema, ensure_ascii=False)}"
    return f"{system}\n\n{line}" if system else line


def checked(raw: str, schema: dict) -> str:
    """``raw`` when it is a JSON object of the schema's shape. Raises MalformedReply."""
    problem = shape_problem(parse_json_object(raw), schema)
    if problem:
        raise MalformedReply(f"The model's answer did not follow the schema ({problem}).",
                             "Try again; a larger model follows the format more reliably.")
    return raw


class JsonMode:
    """Which ``response_format`` one server takes: the setting, else what its first answer showed.

    Args:
        setting: ``openai.json_mode`` ("auto", "json_schema", "json_object"; anything else is "auto").
        state: where the mode is remembered per address (``get_state``/``set_state``), or None.
        base_url: the server's address.
    """

    def __init__(self, setting: str, state, base_url: str) -> None:
        self.setting = setting if setting in JSON_MODES else AUTO
        self._state = state
        self._key = JSON_MODE_KEY.format(url=base_url)
        self._base_url = base_url
        # "json_schema" | "json_object": forced by the setting, or once an answer showed it
        self.mode: str | None = None if self.setting == AUTO else self.setting
        self._detect_lock = threading.Lock()

    def remembered(self) -> str:
        """The mode to try: what this server was found to need before, else a JSON schema."""
        stored = self._state.get_state(self._key) if self._state is not None else None
        return OBJECT if stored == OBJECT else SCHEMA

    def remember(self, mode: str) -> None:
        self.mode = mode
        if self._state is not None:
            self._state.set_state(self._key, mode)

    def answer(self, ask: Callable[[str], str]) -> str:
        """``ask(mode)``'s answer in the mode this server takes, learning it from the first answer.

        Raises:
            openai.OpenAIError: what ``ask`` raised, but a schema refusal in auto mode (then json_object).
        """
        if self.mode is None:
            with self._detect_lock:
                if self.mode is None:
                    return self._answer_as(self.remembered(), ask, learning=True)
        return self._answer_as(self.mode, ask, learning=False)

    def _answer_as(self, mode: str, ask: Callable[[str], str], learning: bool) -> str:
        if mode == SCHEMA:
            try:
                raw = ask(SCHEMA)
            except openai.OpenAIError as exc:
                if not rejects_schema(exc) or self.setting == SCHEMA:
                    raise
                log.warning("openai: %s does not take a JSON schema (%s); asking for json_object from now on",
                            self._base_url, error_text(exc))
                self.remember(OBJECT)
            else:
                if learning:
                    self.mode = SCHEMA  # it answered a schema request: no need to ask again
                return raw
        raw = ask(OBJECT)
        if learning:
            self.mode = OBJECT
        return raw
