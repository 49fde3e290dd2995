"""The code's shape, as docs/architecture.md promises it: modules small enough to read, a GUI
that reaches the flush only through its service and its record types (never a stage module), one floor
plan for every package (LAYERS: each imports only the layers below it, so no two packages need each other
and the core never imports a face; docs/architecture.md draws the same list), and no two modules that need
each other."""

from __future__ import annotations

import ast
from pathlib import Path

import monchat

PACKAGE = Path(monchat.__file__).parent
MAX_LINES = 400
# What the GUI may import from the flush: the service it calls and the types it shows.
GUI_FLUSH_IMPORTS = {"monchat.core.flush.service", "monchat.core.flush.records",
                     "monchat.core.flush.cut"}  # cut: what a limit cut, sent to review by the user (no stage)


def _modules(under: Path) -> list[Path]:
    return sorted(p for p in under.rglob("*.py") if "__pycache__" not in p.parts)


def _imported(path: Path, typing: bool = True) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved), at module level and
    inside functions alike. ``typing=False`` leaves out the imports under ``if TYPE_CHECKING:``."""
    package = ".".join(("monchat", *path.relative_to(PACKAGE).parent.parts))
    return _names(ast.parse(path.read_text(encoding="utf-8")), package, typing)


def _type_only(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree: ast.AST, typing: bool):
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if not typing and _type_only(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _names(tree: ast.AST, package: str, typing: bool = True) -> set[str]:
    names = set()
    for node in _nodes(tree, typing):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # `from ..core.flush import judge`
    return names


def test_no_module_is_longer_than_the_limit():
    long = {str(p.relative_to(PACKAGE)): n for p in _modules(PACKAGE)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these along a real seam (limit {MAX_LINES} lines)"


def test_the_gui_imports_no_flush_stage_module():
    reached = {}
    for path in _modules(PACKAGE / "gui"):
        flush = {name for name in _imported(path) if name.startswith("monchat.core.flush")}
        # `from ..core.flush.service import FlushService` also yields "...service.FlushService"
        stages = {name for name in flush
                  if not any(name == allowed or name.startswith(allowed + ".") for allowed in GUI_FLUSH_IMPORTS)}
        if stages:
            reached[path.name] = sorted(stages)
    assert reached == {}


def test_the_import_check_sees_relative_imports():
    """The check above must resolve ``from ..core.flush.judge import x`` in a gui module."""
    sample = PACKAGE / "gui" / "flush" / "dialog.py"
    names = _imported(sample)
    assert "monchat.core.flush.service" in names and "monchat.core.flush.records" in names


# ---- one floor plan -----------------------------------------------------------------------------------
# Every package of monchat, bottom-up: a package is a direct subpackage of core/ or a top-level module of
# core/ (``monchat.core.errors``), and outside the core app.py, cli/, gui/, __main__.py and the two
# ``__init__.py`` above them. A module imports only its own package and the layers below its own: at module
# level, inside functions and under ``if TYPE_CHECKING:`` alike (a type-only import still makes a lower
# package know a higher one's shapes). Packages on one layer do not import each other, but for the pairs in
# PEER_IMPORTS. What a lower layer must tell a higher one, the composition root wires
# (``MemoryService(on_change=…)``, ``BackendRegistry(resolve_model=…)`` in app.py).
# docs/architecture.md draws this list (``floor_plan()``; test_the_architecture_doc_draws_the_floor_plan).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The vocabularies everything names (memory states, verdicts, kinds, the gate's states, the flush's stages,
    # a reply's status, a dropped proposal's category). Nothing of monchat is imported.
    ("vocabulary", ("monchat.core.vocabulary",)),
    # The one clock: the only reader of the wall clock as "now" (tests/test_one_clock.py).
    ("clock", ("monchat.core.clock",)),
    # The words above them: a message, tokens counted, an API key hidden.
    ("words", ("monchat", "monchat.core", "monchat.core.types", "monchat.core.tokens", "monchat.core.redact")),
    # The record types the store reads and writes (a memory, a tier, a long message's cut); the errors
    # every layer raises; the crash report.
    ("records", ("monchat.core.records", "monchat.core.errors", "monchat.core.crash")),
    # Where files live, the prompt texts, where words may go (cloud consent, API keys).
    ("places", ("monchat.core.paths", "monchat.core.prompts", "monchat.core.privacy")),
    # What the user set; all SQL.
    ("storage", ("monchat.core.settings", "monchat.core.store")),
    # The 6-hour log files; the models' adapters and the registry that chooses one; the personas.
    ("sources", ("monchat.core.logs", "monchat.core.backends", "monchat.core.personas")),
    # One model call (ask, requests that fit, kept answers, progress); the embedded models' catalog,
    # downloads and the speed probe (which runs an embedded backend).
    ("asking", ("monchat.core.asking", "monchat.core.models")),
    # The domain: every transition, the prompt's selection, Delete message.
    ("memory", ("monchat.core.memory",)),
    # The background track: the views and their calls.
    ("background", ("monchat.core.background",)),
    # What the faces call: the flush (its stages and its one commit), a chat turn, history in and out,
    # status and doctor.
    ("services", ("monchat.core.flush", "monchat.core.chat", "monchat.core.transfer", "monchat.core.status",
                  "monchat.core.doctor",
                  "monchat.core.sync")),  # sync (issue 41): journals in a synced folder, over the archive and memory
    # Measuring the services: ``monchat eval`` runs sets through the flush and the chat (issue 42).
    ("measures", ("monchat.core.evaluation",)),
    # The composition root: builds each service once and wires what a lower layer tells a higher one.
    ("root", ("monchat.app",)),
    # The faces: nothing below imports them.
    ("faces", ("monchat.cli", "monchat.gui", "monchat.__main__")),
)
# Peers that may import each other's package, one way (the package graph stays without a cycle):
PEER_IMPORTS = {("monchat.cli", "monchat.gui"),  # `monchat gui` opens the window
                ("monchat.__main__", "monchat.cli")}  # `python -m monchat` runs the CLI


def package_of(module: str) -> str:
    """The package ``module`` belongs to: ``monchat.core.memory.service`` → ``monchat.core.memory``,
    ``monchat.core.errors`` → itself, ``monchat.gui.kit.workers`` → ``monchat.gui``."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[:2] == ["monchat", "core"] else parts[:2])


def _layer(package: str) -> int | None:
    return next((i for i, (_, names) in enumerate(LAYERS) if package in names), None)


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(("monchat", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _resolve(name: str, modules) -> str | None:
    """The module an imported name lives in (``monchat.core.errors.KnownError`` → ``monchat.core.errors``)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def back_imports(module: str, names: set[str], modules=None) -> list[str]:
    """The imports of ``module`` that do not run down: into its own layer (but for PEER_IMPORTS) or one above,
    or into a package no layer names."""
    modules = modules if modules is not None else _all_modules()
    own = package_of(module)
    found = []
    for name in sorted(names):
        if (target := _resolve(name, modules)) is None or not target.startswith("monchat"):
            continue
        other = package_of(target)
        if other == own or (own, other) in PEER_IMPORTS:
            continue
        mine, theirs = _layer(own), _layer(other)
        if mine is None or theirs is None or theirs >= mine:
            found.append(name)
    return found


def _all_modules() -> set[str]:
    return {_module(p) for p in _modules(PACKAGE)}


def unplaced(modules: set[str]) -> tuple[set[str], set[str]]:
    """The packages no layer names, and the names of LAYERS that are no package."""
    packages = {package_of(m) for m in modules}
    named = {name for _, names in LAYERS for name in names}
    return packages - named, named - packages


def test_every_package_has_its_place_on_the_floor_plan():
    missing, stale = unplaced(_all_modules())
    assert missing == set(), "add each to LAYERS, on the layer above everything it imports"
    assert stale == set(), "LAYERS names what is no package any more"


def test_the_floor_plan_check_sees_a_package_left_out():
    planted = _all_modules() | {"monchat.core.newcomer", "monchat.core.newcomer.thing"}
    assert unplaced(planted) == ({"monchat.core.newcomer"}, set())
    assert unplaced(_all_modules() - {"monchat.core.doctor"}) == (set(), {"monchat.core.doctor"})


def test_no_import_runs_back_up_between_the_layers():
    modules = _all_modules()
    offences = {}
    for path in _modules(PACKAGE):
        if back := back_imports(_module(path), _imported(path, typing=True), modules):
            offences[str(path.relative_to(PACKAGE))] = back
    floors = " < ".join("(" + ", ".join(n.removeprefix("monchat.") for n in names) + ")" for _, names in LAYERS)
    assert offences == {}, "a layer imports only the layers below it: " + floors


def test_the_vocabulary_imports_nothing_of_monchat():
    path = PACKAGE / "core" / "vocabulary" / "states.py"
    assert {name for name in _imported(path) if name.startswith("monchat")} == set()


def test_the_layer_check_sees_a_back_import():
    modules = _all_modules()
    package = "monchat.core.memory"
    planted = _names(ast.parse("def f():\n    from ..background import views\n"), package)
    assert back_imports("monchat.core.memory.service", planted, modules) == ["monchat.core.background",
                                                                              "monchat.core.background.views"]
    typed = _names(ast.parse("if TYPE_CHECKING:\n    from ..memory.service import MemoryService\n"),
                   "monchat.core.store")
    assert back_imports("monchat.core.store.memories", typed, modules)  # a type-only import counts too
    assert back_imports("monchat.core.asking.ask", {"monchat.core.memory.guard"}, modules)
    assert back_imports("monchat.core.chat.service", {"monchat.gui.kit"}, modules)
    assert back_imports("monchat.core.chat.service", {"monchat.core.flush.records"}, modules)  # a peer
    nowhere = "monchat.core.nowhere"  # a package no layer names
    assert back_imports("monchat.core.store.db", {nowhere}, modules | {nowhere})
    assert back_imports("monchat.core.flush.service", {"monchat.core.memory.prompt"}, modules) == []
    assert back_imports("monchat.core.asking.records", {"monchat.core.vocabulary.states.FlushStage"}, modules) == []
    assert back_imports("monchat.cli.gui", {"monchat.gui.main"}, modules) == []  # PEER_IMPORTS
    assert back_imports("monchat.gui.main", {"monchat.cli.main"}, modules)  # but one way only


# ---- no package imports another that imports it back -----------------------------------------------------
def package_graph(modules=None) -> dict[str, set[str]]:
    """Package → the packages of ``monchat`` its modules import: at module level, inside functions and under
    ``if TYPE_CHECKING:`` (a package that needs another one's shapes to be read depends on it)."""
    modules = modules if modules is not None else {_module(p): p for p in _modules(PACKAGE)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        own = package_of(name)
        deps = graph.setdefault(own, set())
        for imported in _imported(path, typing=True):
            if (target := _resolve(imported, modules)) and target.startswith("monchat"):
                deps.add(package_of(target))
        deps.discard(own)
    return graph


def test_no_package_imports_one_that_imports_it():
    assert cycles(package_graph()) == []


def test_the_package_cycle_check_sees_a_planted_cycle():
    graph = package_graph()
    graph["monchat.core.store"] = graph["monchat.core.store"] | {"monchat.core.memory"}  # as store/tiers.py once did
    assert any({"monchat.core.store", "monchat.core.memory"} <= set(group) for group in cycles(graph))


def floor_plan() -> str:
    """LAYERS drawn top-down, as docs/architecture.md shows them."""
    def path(name: str) -> str:
        relative = PACKAGE.joinpath(*name.split(".")[1:])
        if name == "monchat":
            return "__init__.py"
        if relative.is_dir():
            return relative.relative_to(PACKAGE).as_posix() + ("/__init__.py" if name == "monchat.core" else "/")
        return relative.relative_to(PACKAGE).as_posix() + ".py"
    return "\n".join(f"{label:<12}{'  '.join(path(n) for n in names)}" for label, names in reversed(LAYERS))


def test_the_architecture_doc_draws_the_floor_plan():
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn = floor_plan()
    assert "```\n" + drawn + "\n```" in doc, "docs/architecture.md's floor plan, as LAYERS has it:\n" + drawn


# ---- no cycles ------------------------------------------------------------------------------------------
def import_graph() -> dict[str, set[str]]:
    """Module → the modules of ``monchat`` it imports: at module level and inside functions (a lazy import
    that closes a cycle still makes two modules need each other; it only hides it from Python), but not
    the names under ``if TYPE_CHECKING:``, which never run. ``from . import x`` counts as an import of
    ``x``, not of the package's ``__init__``."""
    modules = {_module(p): p for p in _modules(PACKAGE)}
    graph = {}
    for name, path in modules.items():
        deps = set()
        for imported in _imported(path, typing=False):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                deps.add(imported)
        graph[name] = deps
    # ``from .x import y`` also yields the package itself (the import's base): keep it only when the
    # package is what was imported, i.e. when no submodule of it is among the names.
    for name, deps in graph.items():
        graph[name] = {d for d in deps if not any(o.startswith(d + ".") for o in deps)
                       or d not in _packages(modules)}
    return graph


def _packages(modules: dict[str, Path]) -> set[str]:
    return {name for name, path in modules.items() if path.name == "__init__.py"}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (each a set of modules that need each other)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:  # Tarjan; the package is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_two_modules_import_each_other():
    assert cycles(import_graph()) == []


def test_the_cycle_check_sees_a_lazy_cycle():
    graph = import_graph()
    graph["monchat.cli.chat"] = graph["monchat.cli.chat"] | {"monchat.cli.main"}  # as cli.chat once did
    assert any({"monchat.cli.chat", "monchat.cli.main"} <= set(group) for group in cycles(graph))
    lazy = _names(ast.parse("def f():\n    from .service import MemoryService\n"), "monchat.core.memory")
    hidden = _names(ast.parse("if TYPE_CHECKING:\n    from .service import MemoryService\n"),
                    "monchat.core.memory", typing=False)
    assert "monchat.core.memory.service" in lazy and "monchat.core.memory.service" not in hidden
