"""``monchat settings …``: show or change settings; store or remove an API key in the OS keyring."""

from __future__ import annotations

import sys

from ..core.errors import InputError
from .words import learning_lines


def register(sub) -> None:
    p = sub.add_parser("settings", help="show or change settings; store or remove an API key (OS keyring)")
    p.add_argument("action", choices=("show", "set", "path", "gemini-key", "forget-gemini-key", "openai-key",
                                      "forget-openai-key", "reset-learning"), nargs="?", default="show")
    p.add_argument("key", nargs="?")
    p.add_argument("value", nargs="?")
    p.set_defaults(run=cmd_settings)


def cmd_settings(app, args) -> int:
    from ..core.settings import set_value
    if args.action == "path":
        print(app.paths.settings_path)
        return 0
    if args.action in ("gemini-key", "forget-gemini-key"):
        return _api_key(app, "gemini", remove=args.action == "forget-gemini-key")
    if args.action in ("openai-key", "forget-openai-key"):
        return _api_key(app, "openai", remove=args.action == "forget-openai-key")
    if args.action == "reset-learning":
        app.learning.reset()
        print("Forgot what your review decisions taught: flush.auto_approve_confidence alone decides again.")
        return 0
    if args.action == "set":
        if not args.key or args.value is None:
            raise InputError("settings set needs a key and a value.", "Example: monchat settings set gate.warn_files 4")
        set_value(app.settings, args.key, args.value)
        app.save_settings()
        print(f"{args.key} = {args.value}")
        return 0
    import tomli_w
    print(tomli_w.dumps(app.settings.to_dict()), end="")
    for line in learning_lines(app.learning):  # comments: the output stays valid TOML
        print(f"# learned from your reviews: {line}")
    return 0


KEY_NAMES = {"gemini": ("Gemini", "Paste the key from Google AI Studio, or pipe it on stdin."),
             "openai": ("OpenAI-compatible server", "Paste the server's API key, or pipe it on stdin.")}


def _api_key(app, backend: str, remove: bool) -> int:
    """Store a key in the OS keyring (typed without echo, or piped on stdin); never in a file."""
    label, paste_hint = KEY_NAMES[backend]
    store = app.secrets.set_gemini_key if backend == "gemini" else app.secrets.set_openai_key
    if remove:
        store(None)
        print(f"The {label} key was removed from the OS keyring.")
        return 0
    if sys.stdin.isatty():
        import getpass
        key = getpass.getpass(f"{label} API key (not shown): ").strip()
    else:
        key = sys.stdin.readline().strip()
    if not key:
        raise InputError("No key was given.", paste_hint)
    store(key)
    print(f"The {label} key is stored in the OS keyring.")
    return 0
