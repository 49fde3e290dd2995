"""The code's shape, as docs/architecture.md promises it: modules small enough to read, a GUI
that reaches the flush only through its service and its record types (never a stage module), imports
that run one way only (asking < memory < background < flush; the core never imports a face), and no
two modules that need each other."""

from __future__ import annotations

import ast
from pathlib import Path

import monchat

PACKAGE = Path(monchat.__file__).parent
MAX_LINES = 400
# What the GUI may import from the flush: the service it calls and the types it shows.
GUI_FLUSH_IMPORTS = {"monchat.core.flush.service", "monchat.core.flush.records"}


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


# ---- one direction ------------------------------------------------------------------------------------
# From the bottom: asking (one model call, requests that fit, kept answers, progress) → memory (the
# domain, the prompt's selection) → background (the views and their calls) → flush (its stages and the
# one commit). A layer imports only layers below it; what a lower layer must tell a higher one, the
# composition root wires (``MemoryService(on_change=…)`` in app.py).
LAYERS = ("monchat.core.asking", "monchat.core.memory", "monchat.core.background", "monchat.core.flush")
FACES = ("monchat.cli", "monchat.gui", "monchat.app")  # what the core never imports
# The vocabularies (states, actions, kinds, the gate's states, the flush's stages) are named by every layer,
# the store included; their module imports nothing of monchat, so naming it runs nothing back up.
VOCABULARY = "monchat.core.vocabulary.states"


def _layer(name: str) -> int | None:
    return next((i for i, layer in enumerate(LAYERS) if name == layer or name.startswith(layer + ".")), None)


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(("monchat", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def back_imports(module: str, names: set[str]) -> list[str]:
    """The imports of ``module`` that run back up: into a higher layer, or from the core into a face."""
    found = []
    own = _layer(module)
    for name in sorted(names):
        if name == VOCABULARY or name.startswith(VOCABULARY + "."):
            continue
        if own is not None and (other := _layer(name)) is not None and other > own:
            found.append(name)
        elif module.startswith("monchat.core") and any(name == f or name.startswith(f + ".") for f in FACES):
            found.append(name)
    return found


def test_no_import_runs_back_up_between_the_layers():
    offences = {}
    for path in _modules(PACKAGE / "core"):
        if back := back_imports(_module(path), _imported(path)):
            offences[str(path.relative_to(PACKAGE))] = back
    assert offences == {}, "lower layers import nothing above them: " + ", ".join(LAYERS)


def test_the_vocabulary_imports_nothing_of_monchat():
    path = PACKAGE / "core" / "vocabulary" / "states.py"
    assert {name for name in _imported(path) if name.startswith("monchat")} == set()


def test_the_layer_check_sees_a_back_import():
    package = "monchat.core.memory"
    planted = _names(ast.parse("def f():\n    from ..background import views\n"), package)
    assert back_imports("monchat.core.memory.service", planted) == ["monchat.core.background",
                                                                     "monchat.core.background.views"]
    assert back_imports("monchat.core.asking.ask", {"monchat.core.memory.guard"})
    assert back_imports("monchat.core.chat.service", {"monchat.gui.kit"})
    assert back_imports("monchat.core.flush.service", {"monchat.core.memory.prompt"}) == []
    assert back_imports("monchat.core.asking.records", {"monchat.core.vocabulary.states.FlushStage"}) == []


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
