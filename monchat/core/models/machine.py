"""Which catalog model this machine runs comfortably, and how fast: for the first start and ``monchat doctor``.

- The machine: its memory and cores (``psutil``, imported here only).
- The choice: the largest model whose ``ram_gb`` fits twice into the installed memory (the rest is for the
  system and other programs), preferring those that write good Japanese; else the bundled SmolLM2.
- The speed: measured once with a short probe on the bundled model (a short prompt evaluated, a few tokens
  decoded), remembered in ``<data folder>/machine_probe.json`` (probed again when memory or cores change),
  and scaled to the chosen model by its size: decoding reads every weight once per token, so its speed goes
  with the file size; prompt evaluation with the parameter count. An estimate, and labelled as one.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..backends.model_size import parse_size_label
from ..clock import utc_stamp
from .catalog import CatalogModel, load_catalog

log = logging.getLogger(__name__)

PROBE_FILE = "machine_probe.json"
PROBE_PROMPT_WORDS = 120  # about 150 tokens of prompt
PROBE_DECODE_TOKENS = 12
# What a turn and a flush cost, in tokens (a chat turn with its system prompt cached; a 35-message flush:
# four filter personas each reading ~1,400 tokens of log beside ~800 of instructions, their answers and
# the judge's): a model of the work, for the estimate only.
TURN_PROMPT, TURN_ANSWER = 300, 120
FLUSH_PROMPT, FLUSH_ANSWER = 4 * 2200, 1400


@dataclass
class Machine:
    ram_bytes: int
    cores: int

    @property
    def ram_gb(self) -> float:
        return self.ram_bytes / 2**30


@dataclass
class Probe:
    """The bundled model's speed on this machine: prompt and decode tokens per second."""

    prompt_tps: float
    decode_tps: float
    file_bytes: int
    parameters: int
    ram_bytes: int
    cores: int
    measured_at: str


@dataclass
class Estimate:
    model: CatalogModel
    turn_s: float
    flush_35_s: float

    def text(self) -> str:
        return (f"about {_duration(self.turn_s)} a reply and {_duration(self.flush_35_s)} a flush of 35 messages "
                f"(an estimate from a short probe on this machine)")


def this_machine() -> Machine:
    import psutil
    from ..backends.llama_support import default_threads
    return Machine(ram_bytes=int(psutil.virtual_memory().total), cores=default_threads())


def recommend(machine: Machine, catalog: list[CatalogModel] | None = None) -> CatalogModel:
    """The catalog model this machine runs comfortably (see the module doc)."""
    models = catalog if catalog is not None else load_catalog()
    fits = [m for m in models if not m.bundled and m.ram_gb * 2 <= machine.ram_gb]
    good = [m for m in fits if m.japanese == "good"] or fits
    if good:
        return max(good, key=lambda m: m.ram_gb)
    return next(m for m in models if m.bundled)


def remembered_probe(data_dir: Path, machine: Machine) -> Probe | None:
    try:
        probe = Probe(**json.loads((data_dir / PROBE_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
    return probe if (probe.ram_bytes, probe.cores) == (machine.ram_bytes, machine.cores) else None


def probe_speed(data_dir: Path, machine: Machine, backend=None) -> Probe:
    """The remembered probe, or a new one on the bundled model (a few seconds), remembered."""
    known = remembered_probe(data_dir, machine)
    if known is not None:
        return known
    from ..backends.embedded import EmbeddedBackend
    model = backend or EmbeddedBackend(n_ctx=512, max_tokens=PROBE_DECODE_TOKENS)
    try:
        llama = model.load()
        prompt = " ".join(["memory"] * PROBE_PROMPT_WORDS)
        tokens = llama.tokenize(prompt.encode(), add_bos=True)
        llama.reset()
        started = time.monotonic()
        llama.eval(tokens)
        prompt_s = time.monotonic() - started
        evaluated = len(tokens)
        started = time.monotonic()
        for _ in range(PROBE_DECODE_TOKENS):
            llama.eval([llama.token_eos()])
        decode_s = time.monotonic() - started
        size = model.model_size()
        probe = Probe(prompt_tps=evaluated / max(prompt_s, 1e-6), decode_tps=PROBE_DECODE_TOKENS / max(decode_s, 1e-6),
                      file_bytes=model.model_file().stat().st_size, parameters=size.parameters if size else 135_000_000,
                      ram_bytes=machine.ram_bytes, cores=machine.cores,
                      measured_at=utc_stamp())
    finally:
        if backend is None:
            model.close()
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / PROBE_FILE).write_text(json.dumps(asdict(probe), indent=2), encoding="utf-8")
    log.info("machine probe: prompt %.0f tok/s, decode %.1f tok/s", probe.prompt_tps, probe.decode_tps)
    return probe


def estimate(model: CatalogModel, probe: Probe) -> Estimate:
    """How fast ``model`` should be here, scaled from the bundled model's probe."""
    file_bytes = model.size_bytes or probe.file_bytes
    parameters = parse_size_label(model.parameters) or probe.parameters
    decode = probe.decode_tps * probe.file_bytes / file_bytes
    prompt = probe.prompt_tps * probe.parameters / parameters
    return Estimate(model, TURN_PROMPT / prompt + TURN_ANSWER / decode, FLUSH_PROMPT / prompt + FLUSH_ANSWER / decode)


SLOW_REPLY_S = 60.0  # an estimated reply slower than this is not called comfortable ("about 42 min a reply")


def recommendation_line(model: CatalogModel, machine: Machine, guess: Estimate | None) -> str:
    """One sentence: what this machine runs comfortably, why, and how fast."""
    pace = "comfortably" if guess is None or guess.turn_s <= SLOW_REPLY_S else "(it fits in memory; replies are slow)"
    head = (f"This computer ({machine.ram_gb:.0f} GB of memory, {machine.cores} cores) runs {model.title} "
            f"{pace}")
    if model.bundled:
        head += "; it has too little memory for a larger embedded model"
    else:
        head += f" ({model.size_text()} download: {model.purpose})"
    return head + (f"; {guess.text()}." if guess is not None else ".")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"


def recommendation_check(data_dir: Path, models_dir: Path):
    """``monchat doctor``'s line: the model this machine runs comfortably, how fast, and how to get it."""
    from ..backends.base import Check
    from ..errors import KnownError
    from .catalog import installed_file
    machine = this_machine()
    model = recommend(machine)
    try:
        guess = estimate(model, probe_speed(data_dir, machine))
    except KnownError as exc:  # no llama-cpp-python or no bundled model: the line says so, without figures
        log.info("machine probe not possible: %s", exc.message)
        guess = None
    hint = "" if model.bundled or installed_file(models_dir, model) else (
        f"Download it with `monchat models pull {model.name}`; it is then used by the embedded backend.")
    return Check("recommended model", True, recommendation_line(model, machine, guess), hint)
