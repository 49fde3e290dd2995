"""The CLI's shape (docs/architecture.md, "The CLI"): every subcommand carries its own ``run``, each action of
``monchat memory`` its own function; no command module imports another; nothing of one command's defaults leaks
into another; the commands the README and docs/cli.md name are the parser's."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from monchat.cli import gui, memory
from monchat.cli.main import build_parser
from tests.test_cli import in_process  # noqa: F401 (a fixture: cli.main in this process, no handler left behind)

ROOT = Path(__file__).resolve().parent.parent


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_runs_through_its_own_run():
    for name, parser in subcommands().items():
        assert callable(parser.get_default("run")), name
        assert parser.get_default("run").__module__.startswith("monchat.cli."), name


def test_each_memory_action_runs_through_its_own_function():
    parse = build_parser().parse_args
    runs = {action: parse(["memory", action]).run for action in memory.MEMORY_ACTIONS}
    assert set(runs) == {"list", "show", "history", "approve", "reject", "edit", "forget", "restore", "delete", "pin",
                         "unpin", "queue", "budget", "rate", "pause", "resume", "never", "undo", "merge-duplicates",
                         "cut", "queue-cut"}
    assert len(set(runs.values())) == len(runs)  # no action shares another's function
    assert all(run.__module__ in ("monchat.cli.memory", "monchat.cli.memory_cut") and run is not memory.cmd_memory
               for run in runs.values())
    assert parse(["memory", "--json", "pin", "mem-1"]).run is memory.memory_pin  # options before the action too


CLI = ROOT / "monchat" / "cli"


def family_imports(sources: dict[str, str]) -> list[str]:
    """``importer → imported`` for each import of one command module by another (lazy imports too).

    A command module (a "family") is one that registers commands: it defines ``register`` or ``register_…``.
    The others (``output``, ``words``, ``terminal``, ``consent``, ``degraded``) are shared; ``main`` builds the
    parser and may import every family.
    """
    trees = {name: ast.parse(text) for name, text in sources.items()}
    families = {name for name, tree in trees.items()
                if any(isinstance(node, ast.FunctionDef) and re.fullmatch(r"register(_\w+)?", node.name)
                       for node in tree.body)}
    found = []
    for name in sorted(families):
        for node in ast.walk(trees[name]):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                imported = [node.module] if node.module else [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("monchat.cli"):
                imported = ([node.module.split(".")[2]] if node.module.count(".") >= 2
                            else [a.name for a in node.names])
            elif isinstance(node, ast.Import):
                imported = [a.name.split(".")[2] for a in node.names
                            if a.name.startswith("monchat.cli.") and a.name.count(".") >= 2]
            else:
                continue
            found += [f"{name} → {other}" for other in imported if other.split(".")[0] in families - {name}]
    return found


def test_no_command_module_imports_another():
    sources = {path.stem: path.read_text(encoding="utf-8") for path in CLI.glob("*.py") if path.stem != "__init__"}
    assert len(sources) > 15
    assert family_imports(sources) == [], "what two commands share belongs in cli/output.py, cli/words.py or the core"


def test_the_family_rule_sees_a_planted_import():
    """The rule above, on a copy of the CLI with one import planted (module level, lazy, absolute)."""
    sources = {path.stem: path.read_text(encoding="utf-8") for path in CLI.glob("*.py") if path.stem != "__init__"}
    for planted in ("from .flush import CHANGE_WORDS\n", "def f():\n    from . import privacy\n",
                    "import monchat.cli.feedback\n", "from monchat.cli.portable import cmd_mcp\n"):
        assert family_imports({**sources, "memory": sources["memory"] + planted}), planted
    assert family_imports({**sources, "memory": sources["memory"] + "from .words import TIER_WORDS\n"}) == []


def test_monchat_alone_opens_the_window_and_only_the_window_shows_errors_in_one():
    parse = build_parser().parse_args
    alone = parse([])
    assert alone.command == "gui" and alone.run is gui.run and alone.on_startup_error is gui.show_error_in_window
    assert parse(["gui"]).on_startup_error is gui.show_error_in_window
    for argv in (["status"], ["chat", "-m", "hi"], ["restore", "b.zip"], ["doctor"]):
        assert parse(argv).on_startup_error is None, argv  # the window's default must not leak into a command


def test_monchat_alone_parses_to_what_the_whole_parser_gives():
    """``main([])`` makes the parser without its commands (the window's first paint waits for less)."""
    assert vars(build_parser(commands=False).parse_args([])) == vars(build_parser().parse_args([]))


def test_only_restore_runs_before_the_app_is_built():
    parse = build_parser().parse_args
    assert parse(["restore", "b.zip"]).builds_app is False
    assert parse(["backup", "b.zip"]).builds_app is True
    assert parse([]).builds_app is True


def _commands_named_in(text: str) -> set[str]:
    return set(re.findall(r"`monchat ([a-z][a-z-]*)", text))


def test_the_commands_the_readme_and_docs_name_exist():
    known = set(subcommands())
    for doc in (ROOT / "README.md", ROOT / "docs" / "cli.md"):
        named = _commands_named_in(doc.read_text(encoding="utf-8"))
        assert named, doc
        assert named <= known, f"{doc.name} names commands monchat does not have: {sorted(named - known)}"


def test_docs_cli_lists_every_command():
    listed = _commands_named_in((ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    assert set(subcommands()) - {"gui"} <= listed, sorted(set(subcommands()) - {"gui"} - listed)


def test_the_readme_starts_with_the_two_commands_that_work_on_a_fresh_machine():
    first = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:4]
    assert first[0] == "```sh" and first[3] == "```"
    assert first[1].startswith("bash scripts/setup && .venv/bin/monchat ")
    assert first[2].startswith("bash scripts/setup && .venv/bin/python -m pytest -q ")
    assert (ROOT / "scripts" / "setup").exists()
    assert 'monchat = "monchat.__main__:main"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_tests_the_guarantees_name_exist():
    text = (ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(tests/[\w/]+\.py)`", text))
    assert len(named) >= 10
    assert [n for n in named if not (ROOT / n).exists()] == []


def test_monchat_alone_without_a_display_says_what_to_do_instead(in_process, monkeypatch, capsys):  # noqa: F811 (a fixture)
    main = in_process
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    for argv in ([], ["gui"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "There is no display" in err and "xvfb-run monchat" in err and "monchat chat" in err
