"""Say yes to a cloud destination in a test's data folder, as answering the question once would."""

from __future__ import annotations

from pathlib import Path

from monchat.app import build_app
from monchat.core.privacy.cloud import CloudConsent


def agree_to_cloud(home: Path, backend: str, persona: str | None = None) -> None:
    """Record the user's yes for where a run with ``--backend backend`` (and ``--persona``) sends."""
    app = build_app(str(home), backend=backend)
    try:
        dest = app.backends.planned_destination(app.chat.persona(persona) if persona else None)
        CloudConsent(app.store).grant(dest)
    finally:
        app.close()
