"""One line of a doctor's report: its own module, so ``model_size`` and ``base`` need not import each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Check:
    """One line of ``monchat doctor``."""

    name: str
    ok: bool
    detail: str  # English, for the terminal; the GUI words the check from ``name`` and ``code``
    hint: str = ""
    code: str = ""  # a failure's error code (KnownError.code) or one of DOCTOR_CODES
