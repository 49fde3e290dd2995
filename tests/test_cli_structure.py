"""The CLI's shape (docs/architecture.md, "The CLI"): every subcommand carries its own ``run``; nothing of one
command's defaults leaks into another; the commands the README and docs/cli.md name are the parser's."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from monchat.cli import gui
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
