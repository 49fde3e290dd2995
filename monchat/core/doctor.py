"""``monchat doctor``: every backend, the data folder, settings and personas, with fixes."""

from __future__ import annotations

import os
import stat
from dataclasses import asdict

from .backends.base import Check, DoctorReport
from .backends.registry import BACKEND_NAMES
from .errors import KnownError, StorageCorrupt, StorageError
from .privacy.cloud import destination
from .redact import redact_tree


def _section(title: str, checks: list[Check], **extra) -> dict:
    return {"title": title, "ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks], **extra}


def _data_checks(app) -> list[Check]:
    checks = []
    data = app.paths.data_dir
    writable = os.access(data, os.W_OK)
    checks.append(Check("data folder", writable, str(data),
                        "" if writable else f"Make {data} writable, or set MONCHAT_HOME to another folder."))
    mode = stat.S_IMODE(data.stat().st_mode)
    checks.append(Check("privacy", mode & 0o077 == 0, f"folder mode {mode:o}",
                        f"Run `chmod 700 {data}`."))
    checks.append(_database_check(app))
    app.logbook.read_all()  # quarantine what is unreadable now, so the count is current
    bad = app.logbook.quarantined()
    checks.append(Check("log files", not bad,
                        f"{len(app.logbook.files())} unflushed; {len(bad)} unreadable line(s) quarantined",
                        f"Unreadable lines are kept in {app.paths.quarantine_dir}; look at them and "
                        "re-import what matters with `monchat import`."))
    return checks


def recovery_hint(paths, error: StorageError) -> str:
    """How to get the database back, worded for the kind of failure."""
    db = paths.db_path
    if isinstance(error, StorageCorrupt):
        return (f"Keep a copy of {db} first. Recover what SQLite can still read into a new file: "
                f"`sqlite3 {db} .recover | sqlite3 {db.with_name('recovered.db')}`, check it, then move it "
                f"to {db.name} (remove {db.name}-wal and {db.name}-shm). Or move {db.name} aside and start "
                "fresh: your unflushed log files are kept, and `monchat import` reads an earlier export.")
    return error.hint


def _database_check(app) -> Check:
    db = app.paths.db_path
    if app.store.newer_schema is not None:
        return Check("database", False, app.store.newer_schema.message, app.store.newer_schema.hint)
    try:
        found = app.store.integrity()
    except StorageError as exc:
        found = exc.message
    if found == "ok":
        return Check("database", True, f"{db} (schema {len(app.store.applied_migrations())} migrations, intact)")
    return Check("database", False, f"{db} is damaged: {found}",
                 recovery_hint(app.paths, StorageCorrupt(found)))


def run_doctor(app) -> dict:
    sections = [_section("data", _data_checks(app))]
    warnings = app.settings_warnings
    sections.append(_section("settings", [Check("settings.toml", not warnings,
                                                "; ".join(warnings) or str(app.paths.settings_path),
                                                "Fix the values named; defaults are used meanwhile.")]))
    persona_problems = [f"{src}: {'; '.join(p)}" for src, p in app.personas.problems.items()]
    sections.append(_section("personas", [Check("personas", not persona_problems,
                                                 "; ".join(persona_problems) or
                                                 f"{len(app.personas.surface)} surface, "
                                                 f"{len(app.personas.filters)} filter",
                                                 "Run `monchat personas validate` and fix the files named.")]))
    usable = []
    registry = app.backends
    for name in BACKEND_NAMES:
        model = _model_for(registry, name)
        try:
            backend = registry.get(name, model)
            report: DoctorReport = held_report(registry, backend) or backend.doctor()
        except KnownError as exc:
            report = DoctorReport(name, model, [Check("available", False, exc.message, exc.hint, code=exc.code)])
        if report.ok:
            usable.append(name)
        sections.append(_section(f"backend {name} ({report.model or NO_MODEL_WORDS.get(name, 'no model set')})",
                                 report.checks, backend=name, context_length=report.context_length))
    from .models.machine import recommendation_check
    sections.append(_section("machine", [recommendation_check(app.paths.data_dir, app.paths.models_dir)]))
    try:
        backend = app.backends.default()
        chosen = backend.describe() if backend.model else (  # never "openai:" with nothing after it
            f"{backend.name} ({NO_MODEL_WORDS.get(backend.name, 'no model set')})")
        sections.append(_section("privacy", _privacy_checks(app, backend)))
    except KnownError as exc:
        chosen = f"none ({exc.message})"
    forced = registry.forced_backend
    return redact_tree({"sections": sections, "usable": usable, "chosen": chosen,  # a server may echo a key
                        # what `monchat doctor` exits with: the backend asked for with --backend, else any
                        "ok": forced in usable if forced else bool(usable)})


NO_MODEL_WORDS = {"openai": "no model set: the server's first"}
HELD_HINT = ("It is not this computer or your network, so monchat asks before anything goes there: answer once in "
             "`monchat chat` at a terminal or in the window, or choose a local backend (`monchat settings`).")


def held_report(registry, backend) -> DoctorReport | None:
    """The report of a backend that may not be contacted (a destination elsewhere, not agreed to), made without a
    request; None when it may be, and its own ``doctor()`` asks. The window's check calls this too."""
    held = registry.held(backend)
    if not held:
        return None
    checks = []
    if backend.name == "gemini" and not _gemini_key(registry):  # said without a request, as its doctor does
        from .backends.gemini import NO_KEY_HINT
        checks.append(Check("api key", False, "not set", NO_KEY_HINT, code="no_key"))
    checks.append(Check("destination", False, f"{backend.where()}: not contacted: {held}", HELD_HINT,
                        code="cloud_consent"))
    return DoctorReport(backend.name, backend.model, checks)


def _gemini_key(registry) -> str | None:
    try:
        return registry.secrets.gemini_key()
    except Exception:  # noqa: BLE001 (a broken keyring must not break doctor; the key is then not set)
        return None


def _model_for(registry, name: str) -> str:
    """The model doctor checks: --model for the backend it applies to (as chat would use it), else the setting."""
    forced = registry.forced_backend
    applies = forced == name if forced else registry.settings.backend.name == name
    return registry.chosen_model(name) if registry.forced_model and applies else ""


def _privacy_checks(app, backend) -> list[Check]:
    """Who is sent your memory: the backend chat uses, and each persona that names its own.

    A cloud is not a failure (the user chose it); the check says so plainly.
    """
    held = app.backends.held(backend)
    checks = [Check("memory goes to", True, destination(backend).sentence() + (f"; not contacted: {held}" if held else ""))]
    for persona in app.personas.surface.values():
        if not persona.backend:
            continue
        try:
            own = app.backends.for_persona(persona)
        except KnownError as exc:
            checks.append(Check(f"persona {persona.id}", False, exc.message, exc.hint, code=exc.code))
            continue
        checks.append(Check(f"persona {persona.id}", True, f"its own backend: {destination(own).sentence()}"))
    return checks
