"""Which catalog model this machine runs comfortably, and the speed estimate from a short probe (remembered)."""

from __future__ import annotations

import json

import pytest

from monchat.cli.main import main
from monchat.core.models.catalog import find_model
from monchat.core.models.machine import (PROBE_FILE, Machine, Probe, estimate, probe_speed, recommend,
                                         remembered_probe)

GB = 2**30


@pytest.mark.parametrize(("ram_gb", "expected"), [(2, "smollm2-135m"), (3, "gemma-3-1b"), (4, "qwen2.5-1.5b"),
                                                   (6, "qwen2.5-1.5b"), (8, "qwen2.5-3b"), (32, "qwen2.5-3b")])
def test_the_recommendation_fits_the_memory(ram_gb, expected):
    model = recommend(Machine(ram_gb * GB, 4))
    assert model.name == expected
    assert model.bundled or model.ram_gb * 2 <= ram_gb


def test_the_estimate_scales_with_the_model():
    probe = Probe(prompt_tps=400.0, decode_tps=40.0, file_bytes=100_000_000, parameters=135_000_000,
                  ram_bytes=8 * GB, cores=2, measured_at="now")
    small, large = estimate(find_model("qwen2.5-1.5b"), probe), estimate(find_model("qwen2.5-3b"), probe)
    assert 0 < small.turn_s < large.turn_s and 0 < small.flush_35_s < large.flush_35_s
    assert small.turn_s == pytest.approx(300 / (400 * 135 / 1500) + 120 / (40 * 1e8 / 1117320736))
    assert "estimate" in large.text()


def test_the_probe_is_measured_once_and_remembered(tmp_path):
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the embedded extra)")
    machine = Machine(8 * GB, 2)
    first = probe_speed(tmp_path, machine)
    assert first.prompt_tps > 0 and first.decode_tps > 0
    stored = (tmp_path / PROBE_FILE).read_text()
    assert probe_speed(tmp_path, machine) == first and (tmp_path / PROBE_FILE).read_text() == stored
    assert remembered_probe(tmp_path, Machine(16 * GB, 2)) is None  # another machine: measured again


def test_doctor_names_the_recommended_model_and_its_speed(tmp_path, monkeypatch, capsys):
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the embedded extra)")
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path))
    main(["doctor", "--json"])
    sections = {s["title"]: s for s in json.loads(capsys.readouterr().out)["sections"]}
    line = sections["machine"]["checks"][0]
    assert ("comfortably" in line["detail"] or "replies are slow" in line["detail"])  # a crowded machine is slow
    assert "an estimate from a short probe" in line["detail"]
    assert (tmp_path / PROBE_FILE).is_file()
