"""Where monchat keeps things.

``MONCHAT_HOME`` puts everything under one folder (tests use it); otherwise the
platform's data and config folders. Folders are 0700, files 0600.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "monchat"


@dataclass(frozen=True)
class Paths:
    data_dir: Path
    config_dir: Path

    @classmethod
    def from_env(cls, home: str | os.PathLike | None = None) -> "Paths":
        """Resolve from an explicit folder, ``MONCHAT_HOME``, or platformdirs."""
        home = home or os.environ.get("MONCHAT_HOME")
        if home:
            root = Path(home).expanduser().resolve()
            return cls(data_dir=root, config_dir=root)
        return cls(
            data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        )

    @property
    def logs_dir(self) -> Path:
        return self.data_dir / "logs"

    @property
    def quarantine_dir(self) -> Path:
        return self.data_dir / "quarantine"

    @property
    def db_path(self) -> Path:
        return self.data_dir / "monchat.db"

    @property
    def memory_md(self) -> Path:
        return self.data_dir / "memory.md"

    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.toml"

    @property
    def user_surface_dir(self) -> Path:
        return self.config_dir / "personas" / "surface"

    @property
    def user_filter_dir(self) -> Path:
        return self.config_dir / "personas" / "filter"

    @property
    def crash_dir(self) -> Path:
        return self.data_dir / "crash"

    def ensure(self) -> "Paths":
        """Create every folder, private to the user."""
        for folder in (self.data_dir, self.config_dir, self.logs_dir, self.quarantine_dir,
                       self.user_surface_dir, self.user_filter_dir):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for folder in (self.data_dir, self.config_dir):
            os.chmod(folder, 0o700)
        return self


def write_private(path: Path, data: str | bytes) -> None:
    """Write a whole file atomically (temp file, fsync, rename), mode 0600."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.tmp")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, raw)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def resource_dir(name: str) -> Path:
    """A shipped folder (``personas``, ``prompts``, ``assets``).

    Inside the wheel they live in ``monchat/_data``; in a source checkout (and an
    editable install) at the top of the repository.
    """
    package = Path(__file__).resolve().parent.parent
    installed = package / "_data" / name
    if installed.is_dir():
        return installed
    return package.parent / name
