"""``benchmarks/run`` produces every figure, each a number with its baseline; no figure's size is judged.

The smallest mode (``--smoke``) runs every group once (the embedded flush excepted, as with
``--quick``), so a benchmark that broke or a figure that went missing fails here, while what
the figures say stays for people to read (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from numbers import Real
from pathlib import Path

import pytest

from monchat.core.backends.embedded import EmbeddedBackend
from tests.support.embedded import require_embedded

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "benchmarks" / "run"
FIGURES = ("turn_overhead_ms", "turn_overhead_ratio", "prefix_breaks_per_100_turns", "requests_over_context",
           "memory_prompt_tokens", "flush_calls_per_1k_messages", "flush_overhead_s", "flush_parallel_ratio", "flush_background_s",
           "chat_during_flush_ratio",
           "status_start_ratio", "gui_start_ratio", "gui_max_stall_ms", "embedded_decode_tok_s", "embedded_turn_s",
           "embedded_flush_s", "context_learn_s_2048", "context_learn_s_8192", "flush_parts_8192")
SKIPPED_IN_SMOKE = {"embedded_flush_s",  # minutes of CPU: only a full run measures it
                    "context_learn_s_2048", "context_learn_s_8192"}  # a real llama_cpp.server: only full runs
CONDITIONS = {"turn_overhead_ms": 3, "turn_overhead_ratio": 3, "memory_prompt_tokens": 3, "gui_max_stall_ms": 2}


def numeric(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def test_run_smoke_prints_every_figure_with_its_baseline(home):
    require_embedded(EmbeddedBackend())
    assert os.access(RUN, os.X_OK), "benchmarks/run must be executable"
    env = {**os.environ, "MONCHAT_PYTHON": sys.executable}  # the interpreter running the tests
    done = subprocess.run([str(RUN), "--json", "--smoke"], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout)
    assert result["mode"] == "smoke"
    assert numeric(result["machine"]["cores"]) and len(result["machine"]["load_average_before"]) == 3
    figures = result["figures"]
    for name in FIGURES:
        assert name in figures, f"{name} is missing"
        value, baseline = figures[name]["value"], figures[name]["baseline"]
        assert figures[name]["baseline_is"], f"{name} does not say what its baseline is"
        if name in SKIPPED_IN_SMOKE:
            assert "skipped" in value
            continue
        values = list(value.values()) if isinstance(value, dict) else [value]
        assert values and all(numeric(v) for v in values), f"{name}: {value!r}"
        assert len(values) == CONDITIONS.get(name, 1), f"{name}: {value!r}"
        baselines = list(baseline.values()) if isinstance(baseline, dict) else [baseline]
        assert all(numeric(b) for b in baselines), f"{name} baseline: {baseline!r}"
    # Another change measures turns with many unflushed lines; its entry is there either way.
    unflushed = figures["unflushed_turns"]["value"]
    assert isinstance(unflushed, dict) and unflushed
