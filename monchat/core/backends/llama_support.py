"""What the embedded backend needs from llama.cpp and the machine, apart from the calls themselves.

- ``default_threads``: the machine's physical cores (the ones this process may run on).
- ``EvalCounter``: how many prompt tokens llama.cpp really evaluated for a call, read
  from its own performance counters, so a prompt served from the KV cache is reported
  as cached (``Usage.cached_tokens``), not guessed.
- The GGUF's chat template and trained context, read from the loaded model.
"""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path

from ..errors import BackendUnavailable

INSTALL_HINT = "Install monchat with the embedded extra (see docs/development.md: the CMAKE_ARGS line)."


def default_threads() -> int:
    """The physical cores this process may use, at least one.

    Hyper-threads share a core's arithmetic units, so llama.cpp gains nothing from
    them and loses to its threads spinning while they wait for each other.
    """
    allowed = _allowed_cpus()
    cores = physical_cores(allowed) or len(allowed)
    return max(1, min(cores, len(allowed) or cores))


def threads_origin(threads: int) -> str:
    """How a thread count was chosen, for doctor and settings: set, or the machine's cores."""
    return "embedded.threads" if threads else "the physical cores"


def physical_cores(allowed: set[int] | None = None) -> int | None:
    """Physical cores among ``allowed`` logical CPUs (all when None); None when the system won't say."""
    if platform.system() == "Darwin":
        try:
            out = subprocess.run(["sysctl", "-n", "hw.physicalcpu"], capture_output=True, text=True, timeout=2)
            return int(out.stdout.strip())
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
    cores = set()
    for cpu in sorted(allowed if allowed is not None else _allowed_cpus()):
        topology = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            package = (topology / "physical_package_id").read_text().strip()
            core = (topology / "core_id").read_text().strip()
        except OSError:
            return None
        cores.add((package, core))
    return len(cores) or None


def _allowed_cpus() -> set[int]:
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


class EvalCounter:
    """llama.cpp's own count of tokens evaluated by one call on ``llama``.

    llama.cpp counts a batch of more than one token as prompt evaluation
    (``n_p_eval``) and single tokens as generation (``n_eval``); a prompt served
    whole from the KV cache shows up as one token of the latter.
    """

    def __init__(self, llama) -> None:
        self.llama = llama
        self.prompt_start, self.single_start = self._read()

    def _read(self) -> tuple[int, int]:
        import llama_cpp
        data = llama_cpp.llama_perf_context(self.llama.ctx)
        return data.n_p_eval, data.n_eval

    def prompt_evaluated(self) -> int:
        """Prompt tokens evaluated since this counter was made (batches of more than one token)."""
        return self._read()[0] - self.prompt_start


def import_llama_cpp():
    # llama.cpp's threads meet at an OpenMP barrier after every operation. Waiting actively, they
    # spin through every time slice a busy machine gives them: measured on 2 shared cores, a flush
    # call on 2 threads took 41 s and 53 s of CPU spinning, 32 s and 31 s of CPU waiting passively
    # (1 thread: 31 s). Read once, when OpenMP starts, so it is set before llama_cpp is imported.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import llama_cpp
    except ImportError as exc:
        raise BackendUnavailable("The embedded model needs llama-cpp-python.", INSTALL_HINT) from exc
    except (OSError, RuntimeError) as exc:  # installed, but its shared library does not load
        raise BackendUnavailable(f"llama-cpp-python is installed but does not load ({exc}).",
                                 "Rebuild it with the CMAKE_ARGS line from docs/development.md.") from exc
    return llama_cpp


def template_formatter(llama):
    """The GGUF's chat template as llama-cpp-python renders it, or None."""
    template = llama.metadata.get("tokenizer.chat_template")
    if not template:
        return None

    def token_text(token: int) -> str:
        if token < 0:
            return ""
        return llama.detokenize([token], special=True).decode("utf-8", errors="replace")

    from llama_cpp import llama_chat_format
    return llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=token_text(llama.token_eos()),
                                                 bos_token=token_text(llama.token_bos()))


def trained_context(llama) -> int | None:
    architecture = llama.metadata.get("general.architecture", "")
    try:
        return int(llama.metadata.get(f"{architecture}.context_length", ""))
    except ValueError:
        return None


def answer_room(n_ctx: int) -> int:
    """Tokens kept for a structured answer: a sixth of the context, at least 256, at most 1,024.

    A filter's answer (at most three short items) measured 95-300 tokens on SmolLM2; a longer one is
    cut off and asked again (``embedded.py``), so the room is not the schema's worst case, which would
    take a quarter of a small context from every flush request. A larger context leaves more room.
    """
    return max(256, min(1024, n_ctx // 6))
