"""What the CLI (``monchat models``) and Settings → Model both do with the catalog: list, pull and select, remove."""

from __future__ import annotations

from dataclasses import asdict

from .catalog import BUNDLED_NAME, CatalogModel, find_model, installed_file, load_catalog
from .download import pull, remove


def model_rows(app) -> list[dict]:
    """Each catalog model with whether it is installed, and the one selected."""
    selected = app.settings.embedded.model_path.strip() or BUNDLED_NAME
    rows = []
    for model in load_catalog():
        path = None if model.bundled else installed_file(app.paths.models_dir, model)
        row = asdict(model)
        row.update(installed=model.bundled or path is not None, path=str(path) if path else "",
                   selected=model.name == selected, size_text=model.size_text())
        rows.append(row)
    return rows


def select_model(app, spec: str) -> None:
    """Make ``spec`` (a catalog name, a .gguf path, "" for the bundled model) the embedded backend's model."""
    app.settings.embedded.model_path = "" if spec == BUNDLED_NAME else spec
    app.save_settings()
    app.backends.reset()


def pull_and_select(app, name: str, **options) -> CatalogModel:
    """Download (resume, verify) the catalog model ``name`` and select it. ``options`` go to ``download.pull``."""
    model = find_model(name)
    pull(model, app.paths.models_dir, **options)
    select_model(app, model.name)
    return model


def remove_model(app, name: str) -> tuple[bool, bool]:
    """Delete a downloaded model; ``(removed, was selected)``. A selected model falls back to the bundled one."""
    model = find_model(name)
    if model.bundled:
        from ..errors import InputError
        raise InputError(f"{name} ships with monchat and cannot be removed.", "Remove a downloaded model instead.")
    was_selected = app.settings.embedded.model_path.strip() == name
    if was_selected:
        select_model(app, "")
    app.backends.reset()  # a loaded model lets go of its file
    return remove(model, app.paths.models_dir), was_selected
