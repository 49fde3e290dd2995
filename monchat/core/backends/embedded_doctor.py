"""``monchat doctor`` for the embedded backend (kept apart from the calls in ``embedded.py``)."""

from __future__ import annotations

import logging

from ..errors import BackendError, BackendUnavailable
from .base import Check, DoctorReport
from .llama_support import import_llama_cpp as _import_llama_cpp, threads_origin, trained_context
from .model_size import small_model_check

log = logging.getLogger(__name__)


def embedded_doctor(backend) -> DoctorReport:
    """``monchat doctor``'s checks of the embedded backend: library, file, size, load, context, threads."""
    report = DoctorReport(backend=backend.name, model=backend.model, context_length=backend.n_ctx)
    try:
        llama_cpp = _import_llama_cpp()
    except BackendUnavailable as exc:
        report.checks.append(Check("llama-cpp-python", False, exc.message, exc.hint, code=exc.code))
        return report
    report.checks.append(Check("llama-cpp-python", True,
                               f"version {getattr(llama_cpp, '__version__', '?')}"))
    try:
        path = backend.model_file()
    except BackendUnavailable as exc:
        report.checks.append(Check("model file", False, exc.message, exc.hint, code=exc.code))
        return report
    size = backend.model_size()
    report.checks.append(Check("model file", True, f"{path} ({path.stat().st_size / 1e6:.0f} MB"
                               + (f", {size.label} parameters" if size else "") + ")"))
    if size is not None and size.small:
        report.checks.append(small_model_check(size))
    warm = backend._llama is not None
    try:
        llama = backend._llama if warm else backend.load()
    except BackendError as exc:
        report.checks.append(Check("model loads", False, exc.message, exc.hint, code=exc.code))
        return report
    except Exception as exc:  # doctor reports, never raises; the log keeps the trace
        log.exception("embedded doctor: loading failed")
        report.checks.append(Check("model loads", False, f"{type(exc).__name__}: {exc}",
                                   "Report this as a bug with the log file.", code="bug"))
        return report
    detail = f"loaded in {backend.load_seconds:.2f} s" + (" (already warm)" if warm else "")
    report.checks.append(Check("model loads", True, detail))
    report.checks.append(_context_check(backend, llama))
    report.checks.append(Check("threads", True, f"{backend.thread_count()} ({threads_origin(backend.threads)})"))
    return report


def _context_check(backend, llama) -> Check:
    trained = trained_context(llama)
    if trained and backend.n_ctx > trained:
        return Check("context", False, f"n_ctx {backend.n_ctx}, model trained for {trained}",
                     f"Answers degrade past the trained context; set embedded.n_ctx to {trained}.",
                     code="context_over_trained")
    suffix = f" (model trained for {trained})" if trained else ""
    return Check("context", True, f"n_ctx {backend.n_ctx}{suffix}")
