"""Words for "Test connection": core's doctor reports give check names and codes, the GUI words them.

An English window shows core's own detail (it is English, and it carries the addresses, versions
and sizes a user checks); another language shows the check's name and outcome in its own words,
with the failure's advice worded from its code.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ...core.backends.base import DoctorReport
from ...core.errors import KnownError
from ..failures import advice, headline
from ..translation import arg, ui_is_english
from ..kit.workers import Failure


def check_name(name: str) -> str:
    words = {
        "server": QCoreApplication.translate("DoctorWords", "server"),
        "model": QCoreApplication.translate("DoctorWords", "model"),
        "context": QCoreApplication.translate("DoctorWords", "context length"),
        "api key": QCoreApplication.translate("DoctorWords", "API key"),
        "connection": QCoreApplication.translate("DoctorWords", "connection"),
        "key accepted": QCoreApplication.translate("DoctorWords", "key accepted"),
        "model file": QCoreApplication.translate("DoctorWords", "model file"),
        "model loads": QCoreApplication.translate("DoctorWords", "model loads"),
        "keep_alive": QCoreApplication.translate("DoctorWords", "how long the model stays loaded"),
        "model size": QCoreApplication.translate("DoctorWords", "model size"),
    }
    return words.get(name, name)


def outcome(code: str) -> str:
    """A failed check's headline, for the doctor's own codes first, then any error code."""
    words = {
        "no_key": QCoreApplication.translate("DoctorWords", "No API key is set."),
        "no_model_listed": QCoreApplication.translate(
            "DoctorWords", "The server lists no chat model: load one in the server."),
        "not_ollama": QCoreApplication.translate(
            "DoctorWords", "Something answered at this address, but it is not Ollama."),
        "context_over_trained": QCoreApplication.translate(
            "DoctorWords", "The context is set larger than the model was trained for; answers degrade."),
        "bad_keep_alive": QCoreApplication.translate(
            "DoctorWords", "The keep-alive time is not a duration Ollama understands (30m, 2h or -1)."),
        "small_model": QCoreApplication.translate(
            "DoctorWords", "A small model: memory built with it will be unreliable. For memory you can rely on, "
                           "use a larger model through Ollama (e.g. gemma3:4b), LM Studio, or Gemini."),
    }
    return words.get(code) or headline(Failure(code or "error", ""))


def doctor_results(registry, names: list[str]) -> list[tuple[str, DoctorReport | KnownError]]:
    """Run ``doctor()`` for each backend (on a worker thread): its report, or why it cannot be built."""
    results: list[tuple[str, DoctorReport | KnownError]] = []
    for name in names:
        try:
            backend = registry.build(name)
            from ...core.doctor import held_report  # a destination not agreed to is not contacted (issue 36)
            results.append((name, held_report(registry, backend) or backend.doctor()))
        except KnownError as exc:
            results.append((name, exc))
    return results


def _failure_words(code: str) -> str:
    return outcome(code) + (f" → {advice(code)}" if advice(code) else "")


def doctor_lines(results: list[tuple[str, DoctorReport | KnownError]]) -> list[tuple[bool, str]]:
    """(ok, line) per backend and check, in the window's language (on the GUI thread)."""
    english = ui_is_english()
    lines: list[tuple[bool, str]] = []
    for name, report in results:
        if isinstance(report, KnownError):
            words = (report.message + (f" → {report.hint}" if report.hint else "")) if english \
                else _failure_words(report.code)
            lines.append((False, f"{name}: {words}"))
            continue
        lines.append((report.ok, f"{name} ({report.model})"))
        for check in report.checks:
            mark = "✓" if check.ok else "✗"
            if english:
                text = f"  {mark} {check.name}: {check.detail}"
                if not check.ok and check.hint:
                    text += f" → {check.hint}"
            elif check.ok:  # a check that passed with a warning (a small model) says it
                text = f"  {mark} {check_name(check.name)}" + (f": {outcome(check.code)}" if check.code else "")
            else:
                text = f"  {mark} {check_name(check.name)}: {_failure_words(check.code)}"
            lines.append((check.ok, text))
    return lines


def automatic_lines(results: list[tuple[str, DoctorReport | KnownError]]) -> tuple[list[tuple[bool, str]], str]:
    """Automatic's test (``AUTO_ORDER``'s results): the lines of the backend it would use, the first that works,
    with the verdict naming it; the ones before it that are not there are said in one line, not as faults (the user
    never asked for them). When none works, every line, and "" (the caller's "Something needs fixing:")."""
    working = next((n for n, (name, report) in enumerate(results)
                    if isinstance(report, DoctorReport) and report.ok), None)
    if working is None:
        return doctor_lines(results), ""
    name = results[working][0]
    lines = doctor_lines([results[working]])
    skipped = [other for other, _ in results[:working]]
    if skipped:
        lines.append((True, arg(QCoreApplication.translate("DoctorWords", "Not found here, so not used: %1."),
                                ", ".join(skipped))))
    return lines, arg(QCoreApplication.translate("DoctorWords", "Works: Automatic uses %1."), name)
