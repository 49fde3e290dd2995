"""What the CLI (``monchat models``), Settings → Model and the first start's offer all do with the catalog:
list, pull and select, remove (``app.models``)."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Callable

from .catalog import BUNDLED_NAME, CatalogModel, find_model, installed_file, load_catalog
from .download import pull, remove


class Models:
    """The embedded backend's catalog models in ``models_dir``.

    Args:
        settings: the running settings (``embedded.model_path`` says which model is selected).
        save_settings: writes them (``App.save_settings``).
        backends: reset when the selection changes, so the next call loads the chosen model.
    """

    def __init__(self, settings, save_settings: Callable[[], None], backends, models_dir: Path) -> None:
        self.settings = settings
        self.save_settings = save_settings
        self.backends = backends
        self.models_dir = models_dir

    def rows(self) -> list[dict]:
        """Each catalog model with whether it is installed, and the one selected."""
        selected = self.settings.embedded.model_path.strip() or BUNDLED_NAME
        rows = []
        for model in load_catalog():
            path = None if model.bundled else installed_file(self.models_dir, model)
            row = asdict(model)
            row.update(installed=model.bundled or path is not None, path=str(path) if path else "",
                       selected=model.name == selected, size_text=model.size_text())
            rows.append(row)
        return rows

    def installed(self, model: CatalogModel) -> bool:
        return model.bundled or installed_file(self.models_dir, model) is not None

    def select(self, spec: str) -> None:
        """Make ``spec`` (a catalog name, a .gguf path, "" for the bundled model) the embedded backend's model."""
        self.settings.embedded.model_path = "" if spec == BUNDLED_NAME else spec
        self.save_settings()
        self.backends.reset()

    def pull_and_select(self, name: str, **options) -> CatalogModel:
        """Download (resume, verify) the catalog model ``name`` and select it. ``options`` go to ``download.pull``."""
        model = find_model(name)
        pull(model, self.models_dir, **options)
        self.select(model.name)
        return model

    def remove(self, name: str) -> tuple[bool, bool]:
        """Delete a downloaded model; ``(removed, was selected)``. A selected model falls back to the bundled one."""
        model = find_model(name)
        if model.bundled:
            from ..errors import InputError
            raise InputError(f"{name} ships with monchat and cannot be removed.", "Remove a downloaded model instead.")
        was_selected = self.settings.embedded.model_path.strip() == name
        if was_selected:
            self.select("")
        self.backends.reset()  # a loaded model lets go of its file
        return remove(model, self.models_dir), was_selected
