"""The catalog of embedded models (``catalog.json``, data shipped in the package) and where they live.

A model of the catalog is downloaded into ``<data folder>/models/<name>/<file>`` (``models/download.py``)
and counts as installed only once its SHA-256 was verified: ``<name>/verified.json`` records it.
``embedded.model_path`` (and ``--model`` with ``--backend embedded``) names a catalog model or a
``.gguf`` file; ``resolve`` turns either into the file the embedded backend loads.

``MONCHAT_CATALOG`` points at another catalog file (tests, and a mirror's own list).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import BackendUnavailable

VERIFIED = "verified.json"
BUNDLED_NAME = "smollm2-135m"
BUNDLED_TITLE = "SmolLM2-135M-Instruct"


@dataclass(frozen=True)
class CatalogModel:
    """One downloadable model: what a user needs to choose it, and where it comes from."""

    name: str
    title: str
    repo: str
    file: str
    size_bytes: int
    sha256: str
    ram_gb: float
    context_length: int
    parameters: str
    languages: list = field(default_factory=list)
    japanese: str = ""
    licence: str = ""
    purpose: str = ""
    purpose_ja: str = ""  # the same in Japanese, for a Japanese window
    revision: str = "main"
    sha256_source: str = ""
    bundled: bool = False

    def size_text(self) -> str:
        return "included" if self.bundled else f"{self.size_bytes / 1e9:.1f} GB"


def catalog_path() -> Path:
    override = os.environ.get("MONCHAT_CATALOG")
    if override:
        return Path(override).expanduser()
    return Path(str(resources.files(__package__) / "catalog.json"))


def load_catalog(path: Path | None = None) -> list[CatalogModel]:
    """The catalog's models, in its order (smallest first)."""
    source = path or catalog_path()
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
        names = set(CatalogModel.__dataclass_fields__)
        return [CatalogModel(**{k: v for k, v in entry.items() if k in names}) for entry in data["models"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BackendUnavailable(f"The model catalog {source} cannot be read ({exc}).",
                                 "Reinstall monchat, or unset MONCHAT_CATALOG.") from exc


def find_model(name: str, catalog: list[CatalogModel] | None = None) -> CatalogModel:
    """The catalog model called ``name``. Raises BackendUnavailable naming the ones there are."""
    models = catalog if catalog is not None else load_catalog()
    for model in models:
        if model.name == name:
            return model
    raise BackendUnavailable(f"There is no model {name!r} in the catalog.",
                             f"Choose one of: {', '.join(m.name for m in models)} (monchat models list), "
                             "or give the path of a .gguf file.")


def model_folder(models_dir: Path, model: CatalogModel) -> Path:
    return models_dir / model.name


def installed_file(models_dir: Path, model: CatalogModel) -> Path | None:
    """The model's file when it was downloaded and its SHA-256 verified; else None."""
    if models_dir is None:
        return None
    folder = model_folder(models_dir, model)
    try:
        record = json.loads((folder / VERIFIED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    path = folder / model.file
    if record.get("sha256") != model.sha256 or not path.is_file():
        return None
    if path.stat().st_size != record.get("size_bytes"):
        return None
    return path


def is_file_spec(spec: str) -> bool:
    """A ``.gguf`` path rather than a catalog name."""
    return spec.lower().endswith(".gguf") or "/" in spec or os.sep in spec


def resolve(spec: str, models_dir: Path) -> tuple[str, str]:
    """``(path, display name)`` for ``embedded.model_path``: "" and the bundled name give ("", its title).

    Raises BackendUnavailable for a catalog model not downloaded, an unknown name or a missing file.
    """
    spec = (spec or "").strip()
    if not spec or spec == BUNDLED_NAME:
        return "", BUNDLED_TITLE
    if is_file_spec(spec):
        path = Path(spec).expanduser()
        if not path.is_file():
            raise BackendUnavailable(f"The embedded model file {path} does not exist.",
                                     "Choose an existing .gguf file, a catalog model (monchat models list), "
                                     "or leave embedded.model_path empty for the bundled SmolLM2.")
        return str(path), path.stem
    model = find_model(spec)
    installed = installed_file(models_dir, model)
    if installed is None:
        raise BackendUnavailable(f"The model {spec} is not downloaded yet.",
                                 f"Download it with `monchat models pull {spec}` (or Settings → Model), "
                                 "or choose another model.")
    return str(installed), spec
