"""Requests that fit: pack log lines or judge pairs into requests within the model's context.

What is counted is what is sent. Each candidate request is rendered in full and
counted by the backend (``Backend.count_json_request``: the model's own tokenizer
where it is at hand, and whatever the adapter adds, such as Ollama's schema
line). Per-unit costs only make the first guess of how many units fit; the
count of the whole request decides, and a request over the limit gives back
units from its end until it fits. A single unit too long for any request is
shortened by the caller's ``shorten``, which records that it did.
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from ..errors import BackendError

T = TypeVar("T")

# Part numbers and day ranges in a rendered header are not known while packing;
# this many tokens are kept free for their difference.
SLACK = 16


class RequestTooLarge(BackendError):
    code = "request_too_large"


def context_hint(setting: str) -> str:
    """How to give a request more room: the backend's own context setting when it has one."""
    return f"Raise {setting} in settings" if setting else "Raise the model's context in settings"


def pack(units: Sequence[T], *, request_cost: Callable[[list[T]], int], unit_cost: Callable[[T], int],
         limit: int, shorten: Callable[[T, int], T], setting: str = "") -> list[list[T]]:
    """Split ``units`` in order into groups whose requests each cost at most ``limit`` tokens.

    Args:
        units: what goes into the requests, in order.
        request_cost: tokens of the whole request for a group, as the backend would send it.
        unit_cost: an estimate of one unit's share of a request.
        limit: the most tokens a request may have.
        shorten: given a unit alone over the limit and by how many tokens, a shorter unit.
        setting: the backend's context setting (``Backend.CONTEXT_SETTING``), named in the error's hint.

    Raises:
        RequestTooLarge: even an empty request does not fit, or a unit cannot be shortened enough.
    """
    limit -= SLACK
    frame = request_cost([])
    if frame >= limit:
        raise RequestTooLarge(
            f"The instructions alone fill the model's context ({frame + SLACK} tokens of the "
            f"{limit + SLACK} a request may have).",
            f"{context_hint(setting)} (a flush needs at least 2,048 tokens), or shorten the filter persona's text.")
    pending = list(units)
    costs = [unit_cost(u) for u in pending]
    groups: list[list[T]] = []
    start = 0
    while start < len(pending):
        end, used = start, frame
        while end < len(pending) and (end == start or used + costs[end] <= limit):
            used += costs[end]
            end += 1
        while True:
            actual = request_cost(pending[start:end])
            if actual <= limit:
                break
            over = actual - limit
            if end - start == 1:
                shorter = shorten(pending[start], over)
                if unit_cost(shorter) >= costs[start]:
                    raise RequestTooLarge("A message cannot be shortened to fit one request.",
                                          f"{context_hint(setting)}.")
                pending[start], costs[start] = shorter, unit_cost(shorter)
                continue
            # The guesses ran low by this factor; give back what covers the overshoot at that rate.
            scale = max(1.0, (actual - frame) / max(1, sum(costs[start:end])))
            given_back = 0.0
            while end - start > 1 and given_back < over:
                end -= 1
                given_back += costs[end] * scale
        groups.append(pending[start:end])
        start = end
    return groups


def cut_text(text: str, cost: int, over: int) -> str:
    """``text`` shortened by about ``over`` of its ``cost`` tokens (a little more, to converge)."""
    share = max(0.0, 1.0 - (over + 8) / max(1, cost)) * 0.95
    keep = min(len(text) - 1, int(len(text) * share))
    return text[:max(0, keep)]
