"""``App`` builds each of its services one way: once, at first use, and the same object after.

A service built anew at every access (a plain ``property``) is two objects for two callers: a rating made through
one ``Feedback`` and read through another, a flag set on one and not the other. So every property of ``App`` is a
``cached_property`` (``flush`` is built once under its own lock), and ``memory`` rates with ``App.feedback``.
"""

from __future__ import annotations

from functools import cached_property

from monchat.app import App, build_app

BUILT_UNDER_A_LOCK = {"flush"}  # a worker and the window may ask for it at once (``App.flush``)


def services() -> list[str]:
    return sorted(name for name, member in vars(App).items() if isinstance(member, (property, cached_property)))


def built_per_access() -> list[str]:
    return [name for name in services()
            if isinstance(vars(App)[name], property) and name not in BUILT_UNDER_A_LOCK]


def test_every_service_of_the_app_is_a_cached_property():
    assert "feedback" in services() and "transfer" in services()
    assert built_per_access() == []


def test_each_service_is_one_object_for_every_caller(home):
    app = build_app(str(home))
    try:
        for name in services():
            assert getattr(app, name) is getattr(app, name), name
        assert app.feedback is app.memory.feedback  # the browser's 👎 and the chat's 👍 go through one Feedback
        assert app.feedback.logbook is app.logbook
    finally:
        app.close()


def feedback_builders() -> list[str]:
    """The modules that build a ``Feedback`` (a call ``Feedback(…)``)."""
    import ast
    from pathlib import Path

    import monchat

    package = Path(monchat.__file__).parent
    return sorted(str(path.relative_to(package)) for path in package.rglob("*.py")
                  if any(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Feedback"
                         for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))


def test_one_module_builds_the_feedback():
    """``MemoryService.feedback`` is the one; delete-message and the App use it rather than a second of their own."""
    assert feedback_builders() == ["core/memory/service.py"]
