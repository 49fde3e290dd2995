"""The markers ``tests/conftest.py`` puts on tests, found from what a test does, never written per test.

``gui``           every test under ``tests/gui/``
``subprocess``    a test that starts a new Python interpreter: ``python -m monchat``, ``python -c`` with monchat
                  code, a pytest inside the test, the monchat executable (found in its source: ``sys.executable``
                  reached from the test, its fixtures or the helpers it calls; held at run time by
                  ``SpawnGuard``: a test that starts one without the marker fails)
``embedded``      the real llama-cpp model: ``require_embedded`` or ``importorskip("llama_cpp…")`` reached from the
                  test (a test that needs llama-cpp-python says so with one of them, and so skips without it)
``llama_server``  llama-cpp-python's own server (``running_llama_server``)
``slow``          written on a module that is slow as a whole (``pytestmark``), and applied to every ``llama_server``

Plain ``pytest`` leaves out every test with one of them (``DEFAULT_SELECTION``); ``pytest -m ""`` runs all.
The search reads the test's module and the ``tests.*`` modules it imports from: a name called in a test
(``run(…)``, ``world.run(…)``) counts when a function, method, fixture or module-level value of that name
reaches the thing, however many calls down.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

MARKERS = {
    "gui": "under tests/gui/: the Qt window (offscreen)",
    "subprocess": "starts a new Python interpreter (python -m monchat, python -c with monchat code, a pytest)",
    "embedded": "runs the real embedded model (llama-cpp-python + SmolLM2)",
    "llama_server": "runs llama-cpp-python's OpenAI-compatible server with SmolLM2 (real HTTP)",
    "slow": "a module that is slow as a whole (its own pytestmark), and every llama_server test",
}
AUTOMATIC = ("gui", "subprocess", "embedded", "llama_server")
DEFAULT_SELECTION = "not (gui or subprocess or embedded or llama_server or slow)"


def _is_sys_executable(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "executable"
            and isinstance(node.value, ast.Name) and node.value.id == "sys")


def _strings(node: ast.AST) -> list[str | None]:
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None for e in node.elts]
    if isinstance(node, ast.Call):
        return [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
    return []


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def direct_marks(node: ast.AST) -> set[str]:
    """The markers a piece of code earns by itself, before following the names it calls."""
    marks: set[str] = set()
    for sub in ast.walk(node):
        marks |= _marks_of(sub)
    return marks


def _marks_of(sub: ast.AST) -> set[str]:
    marks: set[str] = set()
    if _is_sys_executable(sub):
        marks.add("subprocess")
    words = _strings(sub)
    for first, second in zip(words, words[1:]):
        if first == "-m" and second and second.split(".")[0] == "monchat":
            marks.add("subprocess")
    if isinstance(sub, ast.Call):
        name = _call_name(sub)
        if name == "require_embedded":
            marks.add("embedded")
        elif name == "importorskip" and sub.args and isinstance(sub.args[0], ast.Constant) \
                and str(sub.args[0].value).split(".")[0] == "llama_cpp":
            marks.add("embedded")
        elif name == "running_llama_server":
            marks.update(("llama_server", "embedded", "subprocess"))
    return marks


class _Module:
    """One parsed module: its functions by name, its methods by name, its imports from ``tests.*``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.functions: dict[str, list[ast.AST]] = {}  # module-level functions and values, nested functions
        self.methods: dict[str, list[ast.AST]] = {}
        self.imported: dict[str, tuple[str, str]] = {}  # local name -> (module, name)
        self.module_marks: set[str] = set()
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, self.functions)
            elif isinstance(stmt, ast.ClassDef):
                for item in ast.walk(stmt):
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods.setdefault(item.name, []).append(item)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            self.functions.setdefault(name.id, []).append(stmt)
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.module.split(".")[0] == "tests":
                for alias in stmt.names:
                    self.imported[alias.asname or alias.name] = (stmt.module, alias.name)
            elif isinstance(stmt, ast.Expr) or (isinstance(stmt, ast.If) and not _is_main_guard(stmt)):
                self.module_marks |= direct_marks(stmt)  # e.g. pytest.importorskip("llama_cpp") at the top

    @functools.cached_property
    def search_paths(self) -> list[Path]:
        """This module and the tests.* modules it imports from: where a method called here may be."""
        return [self.path] + sorted(p for p in {_module_path(dotted) for dotted, _ in self.imported.values()}
                                    if p is not None and p != self.path)

    def _function(self, node, into) -> None:
        into.setdefault(node.name, []).append(node)
        for sub in ast.walk(node):
            if sub is not node and isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                into.setdefault(sub.name, []).append(sub)


def _is_main_guard(stmt: ast.If) -> bool:
    return "__main__" in ast.dump(stmt.test)


@functools.cache
def _module(path: Path) -> _Module:
    return _Module(path)


@functools.cache
def _module_path(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def name_marks(path: Path, name: str, method: bool = False) -> frozenset[str]:
    """The markers the function, method or value called ``name`` in the module at ``path`` reaches."""
    return frozenset(_reach(path, name, method, frozenset())[0])


_reached: dict[tuple, set[str]] = {}  # results found without meeting a cycle: final


def _reach(path: Path, name: str, method: bool, seen: frozenset) -> tuple[set[str], bool]:
    """(markers, whether a cycle cut the search short, so the answer is not final)."""
    key = (path, name, method)
    if key in _reached:
        return _reached[key], False
    if key in seen:
        return set(), True
    seen = seen | {key}
    module = _module(path)
    if not method and name in module.imported:
        dotted, original = module.imported[name]
        target = _module_path(dotted)
        marks, cut = _reach(target, original, False, seen) if target else (set(), False)
    else:
        marks, cut = set(), False
        for node in (module.methods if method else module.functions).get(name, []):
            found = _node_facts(node)
            marks |= found.marks
            calls = []
            for called in found.names - {name}:
                if called in found.local:
                    target = _module_path(found.local[called][0])
                    if target:
                        calls.append((target, found.local[called][1], False))
                elif called in module.functions or called in module.imported:
                    calls.append((path, called, False))
            for called in found.attributes:  # a method: of a class here, or of one in a tests.* module imported
                calls += [(where, called, True) for where in module.search_paths if called in _module(where).methods]
            for call in calls:
                more, more_cut = _reach(*call, seen)
                marks |= more
                cut = cut or more_cut
    if not cut:
        _reached[key] = marks
    return marks, cut


class _Facts:
    """What one function says, in one walk: its own markers, the names it uses, its local tests.* imports."""

    def __init__(self, node: ast.AST) -> None:
        self.marks: set[str] = set()
        self.names: set[str] = set()
        self.attributes: set[str] = set()
        self.local: dict[str, tuple[str, str]] = {}  # `from tests.x import run` inside the function
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                self.names.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                self.attributes.add(sub.attr)
                self.marks |= _marks_of(sub)
            elif isinstance(sub, (ast.List, ast.Tuple, ast.Call)):
                self.marks |= _marks_of(sub)
            elif isinstance(sub, ast.ImportFrom) and sub.module and sub.module.split(".")[0] == "tests":
                self.local.update({a.asname or a.name: (sub.module, a.name) for a in sub.names})


_facts: dict[int, _Facts] = {}


def _node_facts(node: ast.AST) -> _Facts:
    if id(node) not in _facts:
        _facts[id(node)] = _Facts(node)
    return _facts[id(node)]


def marks_for(path: Path, function: str, fixtures: list[str], conftests: list[Path]) -> set[str]:
    """The automatic markers of the test ``function`` in ``path`` that uses ``fixtures``."""
    marks: set[str] = set()
    if path.is_relative_to(TESTS / "gui"):
        marks.add("gui")
    if path.suffix == ".py":
        module = _module(path)
        marks |= module.module_marks
        marks |= name_marks(path, function)
        marks |= name_marks(path, function, method=True)
        for fixture in fixtures:
            marks |= name_marks(path, fixture)
            for conftest in conftests:
                marks |= name_marks(conftest, fixture)
    if "llama_server" in marks:
        marks.add("slow")
    return marks


def conftests_of(path: Path) -> list[Path]:
    """The conftest.py files from ``tests/`` down to the folder of ``path``."""
    found, folder = [], path.parent
    while folder.is_relative_to(TESTS):
        if (folder / "conftest.py").is_file():
            found.append(folder / "conftest.py")
        folder = folder.parent
    return found


# ---- at run time: a test that starts a Python interpreter without the subprocess marker fails ---------------

def _program(event_args) -> str:
    executable, args = event_args[0], event_args[1]
    first = executable
    if first is None and args:
        first = args[0] if isinstance(args, (list, tuple)) else args
    if isinstance(first, bytes):
        first = os.fsdecode(first)
    return os.path.basename(str(first or ""))


def starts_interpreter(event_args) -> bool:
    """Whether a ``subprocess.Popen`` audit event starts Python (or the monchat executable)."""
    program = _program(event_args)
    python = os.path.basename(sys.executable)
    return program in (python, "monchat") or program.startswith("python")


class SpawnGuard:
    """An audit hook (installed once) that notes every interpreter a running test starts."""

    def __init__(self) -> None:
        self.started: list[str] | None = None  # None between tests

    def __call__(self, event: str, args) -> None:
        if event == "subprocess.Popen" and self.started is not None and starts_interpreter(args):
            self.started.append(" ".join(os.fsdecode(a) if isinstance(a, bytes) else str(a)
                                         for a in (args[1] if isinstance(args[1], (list, tuple)) else [args[1]]))[:200])


# What a test costs, roughly, by its markers: a real server's flush, a real model, a wait, a new interpreter, a window.
COST = {"llama_server": 60.0, "embedded": 10.0, "slow": 5.0, "subprocess": 1.5, "gui": 0.5}
PLAIN_COST = 0.1


def heaviest_first(items: list) -> list:
    """The items with their modules in order of cost, heaviest first; a module's tests stay together, in order.

    pytest-xdist's ``--dist loadscope`` hands each worker one module at a time in this order (``--no-loadscope-reorder``
    in pyproject keeps it; by default xdist orders modules by how many tests they have, which puts the real-model
    modules, a few long tests each, last). Started first, a module of a few minutes runs while the other worker
    takes the many short ones, instead of running alone at the end of the run. The window's modules (``gui``) come
    after all the others, heaviest first among them: a worker that has run them holds Qt objects the garbage
    collector may reach later, and a plain test that ran after them once crashed a worker (a segfault while
    collecting) — so a worker runs no plain test after a window test, as before this order."""
    cost: dict[str, float] = {}
    window: set[str] = set()
    for item in items:
        if item.get_closest_marker("gui") is not None:
            window.add(item.nodeid.split("::", 1)[0])
        marks = [COST[name] for name in COST if item.get_closest_marker(name) is not None]
        module = item.nodeid.split("::", 1)[0]
        cost[module] = cost.get(module, 0.0) + max(marks, default=PLAIN_COST)
    first_seen = {module: place for place, module in enumerate(dict.fromkeys(i.nodeid.split("::", 1)[0] for i in items))}
    def key(item) -> tuple[bool, float, int]:
        module = item.nodeid.split("::", 1)[0]
        return module in window, -cost[module], first_seen[module]
    return sorted(items, key=key)
