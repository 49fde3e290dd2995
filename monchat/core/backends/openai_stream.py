"""Reading a streamed chat completion from an OpenAI-compatible server: its text, why it ended, its usage.

Chat replies and structured answers both stream (a flush shows an answer's tokens as they arrive; a chunk is
about a token), and both read the chunks the same way:

- Usage is asked for (``stream_options.include_usage``; cached and reasoning tokens too) and comes in the last
  chunk, after the one with ``finish_reason``; a server ignoring it leaves the estimate (``Usage.counts`` logs
  it as ``estimated_prompt_tokens``).
- A stream that ends without a ``finish_reason`` was cut off (``openai_errors.stream_cut_off``): llama_cpp.server
  ends a running reply with a bare ``[DONE]`` when another request arrives, and answers a request over its
  context with 200 and an empty stream (``anything`` tells the two apart).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from ..types import Usage


@dataclass
class StreamEnd:
    """What a stream said besides its text, known once it is read to its end."""

    estimate: int  # the prompt's tokens as monchat counted them
    usage: Usage = field(init=False)  # the server's count from the last chunk; until then the estimate
    finish: str | None = None  # None: the stream was cut off
    anything: bool = False  # whether any chunk arrived at all

    def __post_init__(self) -> None:
        self.usage = Usage(estimated_prompt_tokens=self.estimate)


def texts(chunks, end: StreamEnd) -> Iterator[str]:
    """The text pieces of ``chunks`` (an ``openai`` stream), noting in ``end`` its finish reason and usage."""
    for chunk in chunks:
        end.anything = True
        if chunk.usage is not None:  # the last chunk, after the one with finish_reason
            end.usage = usage_of(chunk.usage, end.estimate)
        for choice in chunk.choices or []:
            end.finish = choice.finish_reason or end.finish
            text = choice.delta.content if choice.delta else None
            if text:
                yield text


def usage_of(usage, estimate: int) -> Usage:
    """monchat's ``Usage`` from the ``openai`` client's usage object."""
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    output_details = getattr(usage, "completion_tokens_details", None)
    return Usage(prompt_tokens=usage.prompt_tokens, output_tokens=usage.completion_tokens,
                 cached_tokens=getattr(prompt_details, "cached_tokens", None),
                 thinking_tokens=getattr(output_details, "reasoning_tokens", None),
                 estimated_prompt_tokens=estimate)
