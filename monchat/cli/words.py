"""What several commands say alike: the window's words for how often a memory comes up and for a rating, and the
lines review learning shows (``status``, ``settings show``).

A command module (one that registers commands) imports this, ``output.py`` and the other shared modules, never
another command module (``tests/test_cli_structure.py``).
"""

from __future__ import annotations

from ..core.records.tiers import Tier

# How often a memory comes up (its tier), as the window says it (gui/memory/tier_words.py).
TIER_WORDS = {Tier.HOT: "often", Tier.WARM: "now and then", Tier.COLD: "not lately", Tier.FROZEN: "long ago"}
# A rating as `monchat rate` and `monchat memory rate` say it ("": the rating was cleared).
RATING_WORDS = {"up": "👍", "down": "👎", "": "cleared"}


def learning_lines(learning) -> list[str]:
    """The Layer 1 auto-approve thresholds review decisions taught (``App.learning``), one line per topic."""
    base = learning.base
    return [f"{e['topic']}: {e['threshold']:.2f} (setting {base:.2f}; "
            f"{e['approved']} approved, {e['rejected']} rejected)" for e in learning.summary()]
