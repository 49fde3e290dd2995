"""Faults of the environment, injected: a full disk (a file-size limit), and what each write does then.

A write under ``RLIMIT_FSIZE`` is cut short at the limit and the next one fails with EFBIG (Python
ignores SIGXFSZ), which is what a nearly full disk does to a large write. Every monchat write must be
whole or undone, and the user must get a clear error with its own exit code, never exit 70.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path


from monchat.app import build_app
from monchat.core.errors import StorageFull
from monchat.core.types import Message

REPO = Path(__file__).resolve().parents[1]

# Runs one CLI command (argv as JSON on stdin: a big message is too long for argv) with a scripted backend that
# answers "ok" (or $SCRIPTED_REPLY), then reports what happened.
CLI_SCRIPT = """
import json, os, sys
from monchat.cli import main as cli
from tests.support.scripted import ScriptedBackend
backend = ScriptedBackend(default_reply=os.environ.get("SCRIPTED_REPLY", "ok"))
rc = cli.main(json.loads(sys.stdin.readline()), pinned_backend=backend)
print(json.dumps({"rc": rc, "calls": len(backend.history)}), file=sys.__stdout__)
"""


def run_limited(home: Path, code: str, *args: str, fsize: int | None = None,
                stdin: str = "", reply: str = "ok") -> subprocess.CompletedProcess:
    """Run ``python -c code ARGS`` with MONCHAT_HOME and, if given, a file-size limit in bytes."""
    env = {**os.environ, "MONCHAT_HOME": str(home), "TZ": "UTC", "SCRIPTED_REPLY": reply,
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}

    def limit():
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=REPO, input=stdin,
                          capture_output=True, text=True, timeout=120, preexec_fn=limit)


def run_cli_limited(home: Path, argv: list[str], fsize: int | None = None, reply: str = "ok") -> dict:
    done = run_limited(home, CLI_SCRIPT, fsize=fsize, stdin=json.dumps(argv) + "\n", reply=reply)
    assert done.stdout.strip(), done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["stderr"] = done.stderr
    return result


def fresh_home(home: Path) -> None:
    """Create the data folder and database without a limit (their size is not what is tested)."""
    build_app(str(home)).close()


def log_lines(home: Path) -> list[bytes]:
    return [line for p in sorted((home / "logs").glob("*.jsonl")) for line in p.read_bytes().split(b"\n") if line]


# ---- log appends ---------------------------------------------------------------------------
def test_a_message_too_large_for_the_disk_is_not_logged_torn_nor_sent(home):
    fresh_home(home)
    big = "あ" * 35_000  # ~105 KB of UTF-8
    result = run_cli_limited(home, ["chat", "-m", big], fsize=50_000)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert result["calls"] == 0  # never sent to the model
    assert "no room" in result["stderr"] and "Traceback" not in result["stderr"]
    assert log_lines(home) == []  # cut back: no torn line left behind

    after = run_cli_limited(home, ["chat", "-m", "small one"])
    assert after["rc"] == 0, after["stderr"]
    app = build_app(str(home))
    read = app.logbook.read_all()
    assert [m.text for m in read.messages] == ["small one", "ok"] and read.bad_lines == []
    app.close()


def test_an_append_that_fails_midway_leaves_the_earlier_lines_whole(home):
    fresh_home(home)
    assert run_cli_limited(home, ["chat", "-m", "first"])["rc"] == 0
    before = log_lines(home)
    result = run_cli_limited(home, ["chat", "-m", "x" * 80_000], fsize=40_000)
    assert result["rc"] == StorageFull.exit_code and result["calls"] == 0
    assert log_lines(home) == before


def test_import_under_a_size_limit_imports_nothing_torn(home, tmp_path):
    fresh_home(home)
    source = tmp_path / "history.jsonl"
    source.write_text("".join(json.dumps({"ts": f"2026-11-29T0{i}:00:00+00:00", "role": "user",
                                          "text": f"{i} " + "y" * 20_000}) + "\n" for i in range(5)))
    result = run_cli_limited(home, ["import", str(source)], fsize=50_000)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    app = build_app(str(home))
    read = app.logbook.read_all()
    assert read.bad_lines == []  # whatever was written is whole lines
    app.close()


# ---- whole-file writes -------------------------------------------------------------------
WRITE_SCRIPT = """
import sys
from pathlib import Path
from monchat.core.paths import write_private
from monchat.core.errors import StorageFull
from monchat.core.types import Message
try:
    write_private(Path(sys.argv[1]), b"n" * int(sys.argv[2]))
except StorageFull as exc:
    print("StorageFull", exc.message)
"""


def test_a_whole_file_write_over_the_limit_keeps_the_old_file_and_no_temp(home, tmp_path):
    target = tmp_path / "folder" / "memory.md"
    target.parent.mkdir()
    target.write_bytes(b"old content")
    done = run_limited(home, WRITE_SCRIPT, str(target), "100000", fsize=50_000)
    assert done.stdout.startswith("StorageFull"), done.stderr
    assert target.read_bytes() == b"old content"
    assert sorted(p.name for p in target.parent.iterdir()) == ["memory.md"]
    done = run_limited(home, WRITE_SCRIPT, str(target), "1000", fsize=50_000)
    assert done.stdout == "" and target.read_bytes() == b"n" * 1000


def test_an_imported_card_that_does_not_fit_is_not_reported_as_imported(home, tmp_path):
    fresh_home(home)
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"spec": "chara_card_v2", "spec_version": "2.0",
                                "data": {"name": "Big", "description": "d" * 300_000, "first_mes": "hi"}}))
    result = run_cli_limited(home, ["personas", "import", str(card)], fsize=100_000)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert list((home / "personas" / "surface").iterdir()) == []
    assert run_cli_limited(home, ["personas", "import", str(card)])["rc"] == 0
    assert [p.name for p in (home / "personas" / "surface").iterdir()] == ["big.toml"]


def test_export_to_a_file_under_the_limit_is_an_error_not_a_torn_file(home, tmp_path):
    fresh_home(home)
    assert run_cli_limited(home, ["chat", "-m", "z" * 60_000])["rc"] == 0
    out = tmp_path / "export.jsonl"
    result = run_cli_limited(home, ["export", "--jsonl", "-o", str(out)], fsize=50_000)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert not out.exists()
    assert run_cli_limited(home, ["export", "--jsonl", "-o", str(out)])["rc"] == 0
    assert len(out.read_text().splitlines()) == 2


def test_a_quarantine_copy_that_does_not_fit_does_not_block_reading(home):
    fresh_home(home)
    logs = home / "logs"
    good = {"id": "g1", "ts": "2026-11-29T01:00:00+00:00", "role": "user", "text": "fine"}
    (logs / "2026-11-29_00.jsonl").write_bytes(b"{" + b"q" * 80_000 + b"\n" + json.dumps(good).encode() + b"\n")
    result = run_cli_limited(home, ["export", "--jsonl"], fsize=50_000)
    assert result["rc"] == 0, result["stderr"]
    assert list((home / "quarantine").iterdir()) == []  # no torn copy
    assert run_cli_limited(home, ["export", "--jsonl"])["rc"] == 0
    assert [p.stat().st_size for p in (home / "quarantine").iterdir()] == [80_001]


def test_a_flush_that_does_not_fit_rolls_back_and_keeps_the_logs(home):
    app = build_app(str(home))
    for n in range(60):
        app.logbook.append(Message(id=f"m{n}", ts=f"2026-11-29T01:{n:02d}:00+00:00", role="user", text="あ" * 3000))
    app.close()
    before = log_lines(home)
    limit = (home / "monchat.db").stat().st_size + 100_000  # the database opens; the flush's writes do not fit
    nothing_found = json.dumps({"items": []})  # each filter reads and finds nothing
    result = run_cli_limited(home, ["flush"], fsize=limit, reply=nothing_found)
    assert result["rc"] == StorageFull.exit_code, result["stderr"]
    assert log_lines(home) == before  # nothing removed: the commit did not happen
    after = run_cli_limited(home, ["flush"], reply=nothing_found)
    assert after["rc"] == 0, after["stderr"]
    app = build_app(str(home))
    assert app.archive.count() == 60 and app.logbook.files() == []
    app.close()
