"""Commands that still work when the database cannot be opened: ``doctor`` and ``export --jsonl``.

With a damaged, locked or unreadable ``monchat.db`` the app cannot be built, but the log files are
plain JSONL: what they hold can still be exported, and doctor can still say what is wrong.
"""

from __future__ import annotations

import json
import sys

from .core.doctor import recovery_hint
from .core.errors import StorageError
from .core.logs import LogBook
from .core.paths import Paths, write_private
from .core.transfer import export_record


def export_logs_only(paths: Paths, error: StorageError, output) -> int:
    """Export every message still in the log files; say that the archive was left out."""
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    read = logbook.read_all()
    messages = sorted(read.messages, key=lambda m: (m.dt.timestamp(), m.id))
    text = "".join(json.dumps(export_record(m), ensure_ascii=False) + "\n" for m in messages)
    if output:
        write_private(output, text)
    else:
        sys.stdout.write(text)
    print(f"monchat: warning: {error.message}", file=sys.stderr)
    print(f"monchat: exported only the {len(messages)} message(s) still in log files; the archive in "
          f"{paths.db_path.name} was left out.", file=sys.stderr)
    print(f"  → {recovery_hint(paths, error)}", file=sys.stderr)
    return error.exit_code


def doctor_without_database(paths: Paths, error: StorageError, as_json: bool) -> int:
    """Report the database problem and what can still be seen of the data folder."""
    logbook = LogBook(paths.logs_dir, paths.quarantine_dir)
    read = logbook.read_all()
    checks = [
        {"name": "database", "ok": False, "detail": error.message, "hint": recovery_hint(paths, error)},
        {"name": "log files", "ok": not read.bad_lines,
         "detail": f"{len(logbook.files())} unflushed file(s) with {len(read.messages)} message(s); "
                   f"{len(read.bad_lines)} unreadable line(s)",
         "hint": "They are safe: `monchat export --jsonl` exports them even now."},
    ]
    report = {"sections": [{"title": "data", "ok": False, "checks": checks}], "usable": [],
              "chosen": f"none ({error.message})", "error": error.as_dict()}
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print("!! data")
        for check in checks:
            print(f"   {'✓' if check['ok'] else '✗'} {check['name']}: {check['detail']}")
            print(f"     → {check['hint']}")
    return error.exit_code
