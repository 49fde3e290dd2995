"""sqlite-utils, imported without numpy.

sqlite-utils imports numpy whenever it is installed (llama-cpp-python brings it),
only to map numpy's number types to column types. monchat never stores a numpy
value, and importing numpy costs a fifth of a second of every start (``status``,
the window), so it is hidden while sqlite-utils loads and visible again after:
the embedded backend still imports it when it loads its model.

sqlite-utils also loads every installed package's "sqlite_utils" plugins when the first ``Database`` opens: it
reads the entry points of the whole environment (some 80 ms of every start) and would let any package installed
beside monchat run code inside monchat's database connection. monchat uses no such plugin, so the scan is
marked done before any ``Database`` opens.
"""

from __future__ import annotations

import sys

_HIDDEN = ("numpy", "pandas")


def _load():
    hidden = [name for name in _HIDDEN if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # "import numpy" raises ImportError
    try:
        import sqlite_utils
        import sqlite_utils.db
        import sqlite_utils.plugins
        sqlite_utils.plugins._plugins_loaded = True  # no entry-point scan: monchat loads no sqlite-utils plugin
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
    return sqlite_utils


Database = _load().Database
