"""Settings → Model's embedded catalog and the first start's offer: download with progress and Cancel
against the loopback Hub (tests/fakes/fake_hub.py), off the GUI thread; a finished download selects the model."""

from __future__ import annotations

import hashlib
import json

import pytest

from monchat.core.models.catalog import find_model, installed_file
from monchat.core.models.machine import Machine
from monchat.gui.settings.model_offer import ModelOffer
from tests.fakes.fake_hub import running_fake_hub
from tests.support.gguf_files import bundled_gguf

REPO = "test-org/SmolLM2-GGUF"


@pytest.fixture
def hub(tmp_path, monkeypatch):
    source = bundled_gguf()
    entry = {"name": "smol", "title": "SmolLM2 (test)", "repo": REPO, "file": source.name,
             "size_bytes": source.stat().st_size, "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
             "ram_gb": 0.5, "context_length": 8192, "parameters": "135M", "languages": ["en", "ja"],
             "japanese": "poor", "licence": "Apache-2.0", "purpose": "tests"}
    bundled = dict(entry, name="smollm2-135m", title="Built in", bundled=True, size_bytes=0, sha256="")
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"models": [bundled, entry]}))
    monkeypatch.setenv("MONCHAT_CATALOG", str(catalog))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with running_fake_hub(source, REPO, source.name) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def test_the_picker_shows_each_model_and_downloads_one_with_progress(window, app, hub, qtbot):
    dialog = window.open_settings()
    picker = dialog.model.catalog
    assert picker.box.count() == 2 and "needs 0.5 GB memory" in picker.box.itemText(1)
    picker.box.setCurrentIndex(1)
    assert "Japanese: poor" in picker.details.text() and "Apache-2.0" in picker.details.text()
    assert not picker.use_button.isEnabled() and picker.download.button.isEnabled()
    seen = []
    picker.download.bar.valueChanged.connect(lambda _v: seen.append(picker.download.state.text()))
    with qtbot.waitSignal(picker.download.finished, timeout=60000) as finished:
        picker.download.button.click()
    assert finished.args == [True]
    assert any("/s" in text for text in seen)  # speed (and time left) while it downloads
    assert "downloaded and verified" in picker.download.state.text().lower()
    assert dialog.model.embedded_path.text() == "smol"  # selected in the form; Save keeps it
    assert installed_file(app.paths.models_dir, find_model("smol")) is not None
    picker.box.setCurrentIndex(0)
    picker.use_button.click()
    assert dialog.model.embedded_path.text() == ""  # the built-in model


def test_cancel_stops_the_download_and_installs_nothing(window, app, hub, qtbot):
    picker = window.open_settings().model.catalog
    picker.box.setCurrentIndex(1)
    picker.download.bar.valueChanged.connect(lambda _v: picker.download.cancel())
    with qtbot.waitSignal(picker.download.finished, timeout=60000) as finished:
        picker.download.button.click()
    assert finished.args == [False]
    assert "cancelled; nothing was installed" in picker.download.state.text()
    assert installed_file(app.paths.models_dir, find_model("smol")) is None


def test_the_first_start_offer_downloads_and_selects_or_lets_you_say_not_now(window, app, hub, qtbot):
    offer = ModelOffer(app.models, app.paths.data_dir, window.runner, find_model("smol"), Machine(8 * 2**30, 2), window)
    qtbot.addWidget(offer)
    assert "8 GB of memory" in offer.text.text() and "SmolLM2 (test)" in offer.text.text()
    assert "not measured yet" in offer.speed.text()  # nothing measured on its own: the Measure button does
    with qtbot.waitSignal(offer.download.finished, timeout=60000):
        offer.download.button.click()
    assert app.settings.embedded.model_path == "smol"
    assert app.paths.settings_path.read_text(encoding="utf-8").count('model_path = "smol"') == 1


def test_not_now_downloads_nothing(window, app, hub, qtbot):
    offer = ModelOffer(app.models, app.paths.data_dir, window.runner, find_model("smol"), Machine(8 * 2**30, 2), window)
    qtbot.addWidget(offer)
    offer.show()
    offer.later.click()
    assert not offer.isVisible() and hub.requests == []
    assert app.settings.embedded.model_path == ""


def test_the_offers_description_is_whole_once_the_progress_row_shows(window, app, hub, qtbot):
    """Issue 38: the first-start offer's description was cut mid-sentence once its progress row appeared."""
    offer = ModelOffer(app.models, app.paths.data_dir, window.runner, find_model("smol"), Machine(8 * 2**30, 2), window)
    qtbot.addWidget(offer)
    offer.show()
    offer.resize(440, offer.minimumSizeHint().height())
    qtbot.wait(20)
    offer.download.bar.setVisible(True)  # as a download shows its progress
    offer.download.bar.setValue(40)
    qtbot.wait(50)
    for label in (offer.text, offer.speed):
        assert label.height() >= label.heightForWidth(label.width()), label.text()[:40]
    offer.close()
