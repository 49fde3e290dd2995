"""The embedded model's prompt as its own chat template renders it: exact token counts, and a chat fitted to
the context.

- The model's chat template (GGUF ``tokenizer.chat_template``, ``llama_support.template_formatter``) formats
  the prompt, and the same template counts its tokens exactly; a file without a template is counted as its
  contents plus a few tokens of framing each.
- A chat that no longer fits the context drops its oldest turns (never the system prompt nor the last user
  turn): a small model with a small context must still answer. What is kept starts with a user turn, as strict
  chat templates require. Structured-output requests are never trimmed (``embedded.py`` refuses them instead).
"""

from __future__ import annotations

from typing import Callable

from ..types import Turn


def count_prompt(llama, formatter, messages: list[dict]) -> int:
    """The prompt's tokens as the model sees them: rendered by ``formatter`` (None: the file has no template)."""
    if formatter is not None:
        formatted = formatter(messages=messages)
        return len(llama.tokenize(formatted.prompt.encode("utf-8"),
                                  add_bos=not formatted.added_special, special=True))
    # No template in the file: contents plus a few tokens of framing each.
    return sum(len(llama.tokenize(m["content"].encode("utf-8"), add_bos=False)) + 4
               for m in messages) + 1


def fit_turns(count: Callable[[list[Turn]], int], turns: list[Turn],
              budget: int) -> tuple[list[Turn], int] | None:
    """The newest turns whose prompt (``count``: its tokens with the system text) fits ``budget``, and that count.

    Whole when they fit; else from the oldest user turn (not the first turn) that fits; None when not even the
    last user turn does.
    """
    tokens = count(list(turns))
    if tokens <= budget:
        return list(turns), tokens
    starts = [i for i, t in enumerate(turns) if t.role == "user" and i > 0]
    # Dropping more never adds tokens, so the first start that fits is found by bisection.
    low, high, best = 0, len(starts) - 1, None
    while low <= high:
        middle = (low + high) // 2
        tokens = count(list(turns[starts[middle]:]))
        if tokens <= budget:
            best, high = (starts[middle], tokens), middle - 1
        else:
            low = middle + 1
    return None if best is None else (list(turns[best[0]:]), best[1])
