"""The guard against the real embedded model, live: SmolLM2-135M flushes a short English and a short Japanese
evening, and whatever it answers, no view the user is shown as theirs holds the prompt's or the persona's text
or a placeholder slot, and every message is archived.

The recorded answers (``tests/test_recorded_replay.py``) test the same against what the model said once; this
asks it now, so a new model file, llama.cpp or prompt meets the guard too. The evenings are the recorded ones,
cut to their first messages (the move, the new team, the dog) to keep each flush short.
"""

from __future__ import annotations

import pytest

from tests.support.embedded import require_embedded
from tests.support.recorded import VIEWS, run_evening, traces, views

# Each flush is about a minute of two cores (64 s English, 78 s Japanese, measured); on a machine shared with other model runs it took 5 to 16 minutes,
# and the evening's flush is the first test's setup: the guard against a hung model is wider than the default.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

MESSAGES = 6  # three user lines and their replies


@pytest.fixture(scope="module")
def model():
    from monchat.core.backends.embedded import EmbeddedBackend
    from tests.support.recorded import NO_WAIT
    backend = require_embedded(EmbeddedBackend(n_ctx=4096, max_tokens=512, retry=NO_WAIT))  # the shipped settings
    yield backend
    backend.close()


@pytest.fixture(scope="module", params=["evening_en", "evening_ja"])
def flushed(request, model, tmp_path_factory):
    home = tmp_path_factory.mktemp(request.param)
    report, messages = run_evening(home, request.param, model, MESSAGES)
    return report, messages, views(home)


def test_every_message_is_archived(flushed):
    report, messages, _ = flushed
    assert report.messages_archived == len(messages) == MESSAGES


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_no_view_shows_the_prompt_the_persona_or_a_placeholder(flushed, view):
    _, messages, shown = flushed
    assert traces(shown[view], [m.text for m in messages]) == []
