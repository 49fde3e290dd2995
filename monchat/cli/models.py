"""``monchat models list|pull NAME|remove NAME``: the embedded model catalog (core/models/);
``monchat pull NAME``: an Ollama model."""

from __future__ import annotations

import sys

from .output import print_json


def register_pull(sub) -> None:
    p = sub.add_parser("pull", help="download an Ollama model (progress on stderr; Ctrl+C cancels)")
    p.add_argument("name", help="the model, e.g. gemma3:4b")
    p.set_defaults(run=cmd_pull)


def register(sub) -> None:
    p = sub.add_parser("models", help="embedded models: list the catalog, download (pull) one, remove one")
    p.add_argument("action", choices=("list", "pull", "remove"))
    p.add_argument("name", nargs="?", help="a catalog model (see `monchat models list`)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_models)


def cmd_pull(app, args) -> int:
    """``ollama pull`` through monchat's Ollama settings; Ctrl+C stops the download."""
    backend = app.backends.build("ollama", args.name)
    app.backends.refuse_if_held(backend)  # an Ollama elsewhere (a restored ollama.host) is not contacted before a yes
    last = [""]

    def show(step) -> None:
        line = step.status if step.fraction is None else f"{step.status}: {step.fraction:.0%}"
        if line != last[0]:
            print(line, file=sys.stderr, flush=True)
            last[0] = line

    try:
        backend.pull(args.name, progress=show)
    finally:
        backend.close()
    print(f"{args.name} is installed in Ollama at {backend.host}.")
    return 0


def cmd_models(app, args) -> int:
    from ..core.errors import InputError
    if args.action == "list":
        rows = app.models.rows()
        if args.json:
            return print_json(rows)
        for row in rows:
            state = "selected" if row["selected"] else "installed" if row["installed"] else "not downloaded"
            print(f"{row['name']:14} {row['size_text']:>8}  needs {row['ram_gb']:.1f} GB RAM  "
                  f"context {row['context_length']:>6}  Japanese: {row['japanese']:8} {state}")
            print(f"{'':14} {row['title']}; {row['licence']}. {row['purpose']}")
        return 0
    if not args.name:
        raise InputError(f"models {args.action} needs a model name.", "See `monchat models list`.")
    if args.action == "remove":
        removed, was_selected = app.models.remove(args.name)
        print(f"{args.name} removed." if removed else f"{args.name} was not downloaded.")
        if was_selected:
            print("The embedded backend uses the bundled SmolLM2 again.")
        return 0
    last = [0.0]

    def show(progress) -> None:
        import time
        now = time.monotonic()
        if now - last[0] >= 0.5 or progress.done == progress.total:
            last[0] = now
            print(f"\r{progress.text():70}", end="", file=sys.stderr, flush=True)

    try:
        model = app.models.pull_and_select(args.name, on_progress=show)
    finally:
        print(file=sys.stderr)
    print(f"{model.name} is downloaded, verified (SHA-256) and selected for the embedded backend.")
    return 0
