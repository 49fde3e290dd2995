"""Maintain the translations: ``python -m monchat.gui.i18n_tools update|release``.

``update`` runs ``pyside6-lupdate`` over the GUI sources into ``i18n/monchat_<lang>.ts``
(edit those with Qt Linguist); ``release`` compiles them to the ``.qm`` files the app
loads. The tests check that the ``.ts`` files hold every string and that the ``.qm``
files are compiled from the current ``.ts``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

GUI_DIR = Path(__file__).resolve().parent
I18N_DIR = GUI_DIR / "i18n"
TRANSLATED = ("ja",)  # English is the source language; monchat_en.ts only carries it for completeness
LANGUAGES = ("ja", "en")


def tool(name: str) -> str:
    """``pyside6-<name>`` next to the interpreter, on PATH, or the binary inside the PySide6 package."""
    for candidate in (Path(sys.executable).parent / f"pyside6-{name}", shutil.which(f"pyside6-{name}")):
        if candidate and Path(candidate).exists():
            return str(candidate)
    import PySide6
    for candidate in (Path(PySide6.__file__).parent / name, Path(PySide6.__file__).parent / "Qt" / "bin" / name):
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError(f"pyside6-{name} was not found; install PySide6 (with its tools)")


def sources() -> list[str]:
    """The GUI modules, relative to the i18n folder (so the .ts locations do not depend on the checkout)."""
    return sorted(f"../{p.relative_to(GUI_DIR).as_posix()}" for p in GUI_DIR.rglob("*.py")
                  if "__pycache__" not in p.parts)


def ts_path(language: str) -> Path:
    return I18N_DIR / f"monchat_{language}.ts"


def qm_path(language: str) -> Path:
    return I18N_DIR / f"monchat_{language}.qm"


def update(ts: Path | None = None, language: str = "ja") -> str:
    """Extract every ``tr()`` string into a ``.ts`` file; returns lupdate's report."""
    ts = ts or ts_path(language)
    result = subprocess.run([tool("lupdate"), *sources(), "-no-obsolete", "-locations", "none", "-source-language", "en",
                             "-target-language", language, "-ts", str(ts)],
                            cwd=I18N_DIR, capture_output=True, text=True, check=True)
    return result.stdout + result.stderr


def release(ts: Path, qm: Path) -> None:
    subprocess.run([tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], capture_output=True, text=True,
                   check=True)


def main(argv: list[str]) -> int:
    action = argv[0] if argv else "release"
    for language in LANGUAGES:
        if action == "update":
            print(update(language=language), end="")
        release(ts_path(language), qm_path(language))
        print(f"compiled {qm_path(language).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
