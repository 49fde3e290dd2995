"""One clock (issue 42): nothing in the core or the composition root reads the wall clock as "now" but
``core/clock.py``; everything else is given a ``Clock`` (``build_app(clock=…)``), so ``monchat eval``'s
``--now`` and each session's own time are honoured by the flush, Layer 3's and Layer 2's windows, decay, tiers,
the diary's day and expiry alike."""

from __future__ import annotations

import ast
from datetime import datetime, timedelta, timezone
from pathlib import Path

import monchat

PACKAGE = Path(monchat.__file__).parent
THE_CLOCK = "core/clock.py"
# Reads of "now": a call or a reference (a default argument ``clock=time.time`` reads it at every call).
WALL = {("time", "time"), ("time", "time_ns"), ("time", "localtime"), ("time", "gmtime"), ("time", "ctime"),
        ("time", "strftime"), ("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"),
        ("date", "today"), ("datetime", "fromtimestamp")}
# Calls of the system clock outside a ``Clock`` default: each stamps a record with when it was written, and
# decides no memory (its callers that do — the flush's archive — pass their own time).
STAMPS = {"core/store/messages.py": "archived_at when a caller gives none (the flush gives its clock's now)",
          "core/transfer/mcp_server.py": "the time on a line of the MCP activity log",
          "core/transfer/backup.py": "a backup's created_at when a caller gives none",
          "core/types.py": "local_now, the default Clock; a message id's time order (not its ts)",
          "core/crash.py": "a crash report's file name",
          "core/evaluation/runner.py": "an eval run's started and finished (said, never compared)",
          "core/evaluation/longmemeval.py": "a LongMemEval run's started and finished (said, never compared)",
          "core/backends/gemini_cache.py": "the age of a cloud's prompt cache (the cloud's clock, not memory's)",
          "core/models/download.py": "when a model file was verified",
          "core/models/machine.py": "when the speed probe measured",
          "core/transfer/import_parse.py": "the zone an export's times without one are read in (a zone, not a time)"}
SYSTEM = {"local_now", "system_now", "system_epoch", "system_zone", "utc_stamp"}


def wall_reads(source: str) -> list[str]:
    """``module.attr`` reads of the wall clock, and calls of the system clock by name, in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            base = node.value
            name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
            if (name, node.attr) in WALL and not (node.attr == "fromtimestamp"):
                found.append(f"{name}.{node.attr} (line {node.lineno})")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SYSTEM:
            found.append(f"{node.func.id}() (line {node.lineno})")
    return found


def _sources():
    for path in sorted([*(PACKAGE / "core").rglob("*.py"), PACKAGE / "app.py"]):
        yield str(path.relative_to(PACKAGE)), path.read_text(encoding="utf-8")


def test_no_module_but_the_clock_reads_the_wall_clock():
    found = {name: reads for name, text in _sources()
             if name != THE_CLOCK and name not in STAMPS and (reads := wall_reads(text))}
    assert found == {}, "take a Clock (build_app(clock=…)) instead; core/clock.py is the one reader"


def test_the_stamps_allowed_read_only_the_system_clock_by_name():
    for name, text in _sources():
        if name in STAMPS:
            assert all("()" in read for read in wall_reads(text)), name  # no datetime.now() there either


def test_the_scan_sees_each_way_of_reading_the_wall_clock():
    planted = ["import time\nx = time.time()\n", "from datetime import datetime\nx = datetime.now()\n",
               "import datetime\nx = datetime.datetime.now()\n", "from datetime import date\nx = date.today()\n",
               "def f(clock=time.time):\n    pass\n", "x = local_now()\n", "x = datetime.utcnow()\n"]
    for source in planted:
        assert wall_reads(source), source
    assert wall_reads("import time\nx = time.monotonic()\ny = time.perf_counter()\n") == []
    assert wall_reads("def f(clock=local_now):\n    return clock()\n") == []


def test_the_app_reads_its_clock_for_the_window_and_the_flush(tmp_path):
    """The clock given to build_app is the one the chat window and the flush read (no wall clock behind it)."""
    from monchat.app import build_app
    from monchat.core.clock import SetClock
    when = datetime(2031, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=9)))
    clock = SetClock(when)
    app = build_app(str(tmp_path / "home"), clock=clock)
    try:
        assert app.clock() == when and app.chat.clock() == when and app.memory.clock() == when
        assert app.flush.clock() == when
        clock.set(when + timedelta(days=2))
        assert app.flush.clock() == when + timedelta(days=2) and app.memory._now_epoch() == clock().timestamp()
    finally:
        app.close()
