"""A machine probe already measured and remembered in a home, for ``monchat doctor`` tests that are not about it.

``doctor`` names the model this machine runs comfortably from a probe of the bundled model, measured once and
remembered in ``machine_probe.json`` (``core/models/machine.py``): measuring it loads SmolLM2 and takes several
seconds. A test about something else in doctor's report starts where a user who ran doctor once is. The probe
itself is tested in ``tests/test_machine_recommendation.py``.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from monchat.core.models.machine import PROBE_FILE, Probe, this_machine
from monchat.core.paths import Paths


def remember_a_probe(home: Path) -> None:
    machine = this_machine()
    probe = Probe(prompt_tps=400.0, decode_tps=40.0, file_bytes=100_000_000, parameters=135_000_000,
                  ram_bytes=machine.ram_bytes, cores=machine.cores, measured_at="2026-11-01T00:00:00Z")
    data_dir = Paths.from_env(str(home)).data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / PROBE_FILE).write_text(json.dumps(asdict(probe), indent=2), encoding="utf-8")
