"""A real flush in a second process (as ``monchat flush`` in a terminal, or a second window), held mid-way.

The second process builds the app on the same MONCHAT_HOME with a scripted backend whose first filter call
says ``reading`` on stdout and waits for a line on stdin: the flush has then read its files (its list is fixed)
and holds the flush lock. ``finish()`` lets it go and returns what it did.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from monchat.app import build_app
from tests.gui.flush_script import NO_ITEMS
from tests.support.scripted import ScriptedBackend

def held(system, turns, schema):
    print("reading", flush=True)
    sys.stdin.readline()
    return NO_ITEMS(system, turns, schema)

backend = ScriptedBackend(default_reply=NO_ITEMS).enqueue(held)
app = build_app(sys.argv[1], pinned_backend=backend)
try:
    report = app.flush.run()
finally:
    app.store.close()
print(json.dumps({"archived": report.messages_archived, "files": report.files}), flush=True)
"""


@dataclass
class OtherFlush:
    process: subprocess.Popen

    def finish(self, timeout: float = 60) -> dict:
        """Let the flush go on; wait for it to end; its report (``archived``, ``files``)."""
        out, err = self.process.communicate("go\n", timeout=timeout)
        assert self.process.returncode == 0, f"the other flush failed:\n{err}"
        return json.loads(out.strip().splitlines()[-1])


@contextlib.contextmanager
def flush_in_another_process(home: Path | str) -> Iterator[OtherFlush]:
    """A flush running in a second process on ``home``, stopped at its first filter call until ``finish()``."""
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, str(home)], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline().strip()
        if first != "reading":
            process.kill()
            raise AssertionError(f"the other flush did not start: {first!r}\n{process.communicate()[1]}")
        yield OtherFlush(process)
    finally:
        if process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                process.communicate("go\n", timeout=60)
