"""The settings dialog: values saved to settings.toml, the key only to the OS keyring."""

from __future__ import annotations

import tomllib

import keyring
import keyring.errors
import pytest
from keyring.backend import KeyringBackend

from monchat.core.privacy.secrets import GEMINI_KEY_NAME, SERVICE
from tests.fakes.fake_ollama import running_fake_ollama

SECRET = "AIza-test-secret-key-1234567890"


class MemoryKeyring(KeyringBackend):
    priority = 1

    def __init__(self):
        super().__init__()
        self.saved: dict = {}

    def get_password(self, service, username):
        return self.saved.get((service, username))

    def set_password(self, service, username, password):
        self.saved[(service, username)] = password

    def delete_password(self, service, username):
        self.saved.pop((service, username), None)


class LockedKeyring(MemoryKeyring):
    def set_password(self, service, username, password):
        raise keyring.errors.PasswordSetError("no keyring service is running")


@pytest.fixture
def use_keyring():
    previous = keyring.get_keyring()

    def use(backend):
        keyring.set_keyring(backend)
        return backend
    yield use
    keyring.set_keyring(previous)


def test_settings_are_saved_and_the_key_goes_to_the_keyring_only(window, app, use_keyring, qtbot):
    ring = use_keyring(MemoryKeyring())
    dialog = window.open_settings()
    assert dialog.isVisible()
    dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("ollama"))
    dialog.model.ollama_host.setText("http://127.0.0.1:5555")
    dialog.model.ollama_model.setText("qwen3:8b")
    dialog.model.ollama_ctx.setValue(16384)
    dialog.model.ollama_keep.setText("2h")
    dialog.model.gemini_model.setText("gemini-2.5-pro")
    dialog.model.gemini_key.setText(SECRET)
    dialog.model.embedded_ctx.setValue(2048)
    dialog.warn_files.setValue(4)
    dialog.stop_files.setValue(7)
    dialog.ask_layer1.setChecked(True)
    dialog.fixed.boxes[0].setCurrentIndex(dialog.fixed.boxes[0].findData("emotional"))
    dialog.fixed.boxes[1].setCurrentIndex(dialog.fixed.boxes[1].findData("project"))
    dialog.chat_page.language_box.setCurrentIndex(dialog.chat_page.language_box.findData("ja"))
    dialog.chat_page.ctrl_enter.setChecked(True)
    with qtbot.waitSignal(dialog.saved, timeout=2000) as blocker:
        assert dialog.save()
    assert not dialog.isVisible()
    assert blocker.args == [True]  # the language (and, without a registry reset, the backend) apply on restart
    assert "next time monchat starts" in window.statusBar().currentMessage()

    text = app.paths.settings_path.read_text(encoding="utf-8")
    assert SECRET not in text and "AIza" not in text
    saved = tomllib.loads(text)
    assert saved["backend"]["name"] == "ollama"
    assert saved["ollama"] == {**saved["ollama"], "host": "http://127.0.0.1:5555", "model": "qwen3:8b",
                               "num_ctx": 16384, "keep_alive": "2h"}
    assert saved["gemini"]["model"] == "gemini-2.5-pro"
    assert saved["embedded"]["n_ctx"] == 2048
    assert saved["gate"] == {"warn_files": 4, "stop_files": 7}
    assert saved["flush"]["ask_before_layer1"] is True
    assert saved["flush"]["fixed_personas"] == ["emotional", "project"]
    assert saved["chat"]["language"] == "ja"
    assert saved["chat"]["ctrl_enter_sends"] is True
    assert ring.saved[(SERVICE, GEMINI_KEY_NAME)] == SECRET
    assert not any(SECRET in p.read_text(errors="ignore") for p in app.paths.config_dir.rglob("*")
                   if p.is_file() and p.suffix in (".toml", ".txt", ".json"))
    # The services share the settings object, so the window follows at once.
    assert app.chat.gate().warn_at == 4 and window.composer.edit.ctrl_enter_sends
    assert app.settings.chat.ctrl_enter_sends and window.menus.send_key_action.isChecked()
    assert app.store.get_state("gui.send_key") is None  # the old key/value preference is gone
    assert window.gate_bar.count_label.toolTip() == "A flush is recommended at 4 files; chat pauses at 7."


def test_a_keyring_that_cannot_store_shows_what_to_do(window, app, use_keyring):
    use_keyring(LockedKeyring())
    dialog = window.open_settings()
    dialog.model.gemini_key.setText(SECRET)
    assert not dialog.save()
    assert dialog.isVisible()
    assert "the key was not" in dialog.message.text()
    assert "GEMINI_API_KEY" in dialog.message.text()  # the KnownError's hint says what to do
    assert SECRET not in app.paths.settings_path.read_text(encoding="utf-8")
    dialog.close()


def test_gate_changes_apply_at_once(window, app, qtbot):
    dialog = window.open_settings()
    dialog.warn_files.setValue(2)
    with qtbot.waitSignal(dialog.saved, timeout=2000) as blocker:
        assert dialog.save()
    assert blocker.args == [False]
    assert window.gate_bar.count_label.toolTip() == "A flush is recommended at 2 files; chat pauses at 5."


def test_invalid_values_are_not_saved(window, app):
    dialog = window.open_settings()
    dialog.warn_files.setValue(6)
    dialog.stop_files.setValue(5)
    dialog.model.ollama_model.setText("")
    assert not dialog.save()
    assert "Not saved" in dialog.message.text() and "Ollama model name is empty" in dialog.message.text()
    assert not app.paths.settings_path.exists()
    assert app.settings.gate.warn_files == 3
    dialog.close()


def test_key_state_and_removal(window, app, use_keyring):
    ring = use_keyring(MemoryKeyring())
    ring.set_password(SERVICE, GEMINI_KEY_NAME, SECRET)
    dialog = window.open_settings()
    assert "stored in the OS keyring" in dialog.model.gemini_key_state.text()
    assert dialog.model.gemini_key.text() == ""  # the stored key is never shown
    dialog.model.remove_key_button.click()
    assert ring.saved == {} and "No key yet" in dialog.model.gemini_key_state.text()
    dialog.close()


def test_test_connection_runs_doctor_off_thread(window, qtbot):
    dialog = window.open_settings()
    with running_fake_ollama() as server:
        dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("ollama"))
        dialog.model.ollama_host.setText(server.url)
        dialog.model.ollama_model.setText("llama3.2")
        with qtbot.waitSignal(dialog.tested, timeout=10000) as blocker:
            dialog.model.test_button.click()
            assert not dialog.model.test_button.isEnabled()
        assert all(ok for ok, _ in blocker.args[0])
        output = dialog.model.test_output.toPlainText()
        assert output.startswith("Works.") and "✓ server" in output and "✓ model" in output

        dialog.model.ollama_model.setText("not-pulled")
        with qtbot.waitSignal(dialog.tested, timeout=10000):
            dialog.model.test_button.click()
        output = dialog.model.test_output.toPlainText()
        assert output.startswith("Something needs fixing") and "✗ model" in output and "ollama pull" in output
    dialog.close()


def test_your_name_is_saved_and_used_for_user_in_imported_cards(window, app, tmp_path):
    import json as _json

    from tests.test_cards import v2_card
    dialog = window.open_settings()
    dialog.chat_page.user_name.setText("Kenji")
    assert dialog.save()
    assert app.settings.chat.user_name == "Kenji"
    assert 'user_name = "Kenji"' in app.paths.settings_path.read_text(encoding="utf-8")
    card = tmp_path / "aoi.json"
    card.write_text(_json.dumps(v2_card()), encoding="utf-8")
    editor = window.open_surface_personas()
    persona = editor.import_card_file(card)
    assert persona is not None and persona.greeting == "Welcome back, Kenji."
    editor.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_test_connection_with_automatic_names_the_one_it_uses_and_no_fault_of_one_never_asked_for(
        make_window, qtbot, language):
    """Issue 38: Automatic with a working server opened with "Something needs fixing:" and ✗ for the backends the
    user never asked for (and a cloud Automatic never uses)."""
    from tests.fakes.fake_openai import running_fake_openai
    dialog = make_window(language).open_settings()
    page = dialog.model
    with running_fake_openai() as server:
        page.backend_box.setCurrentIndex(page.backend_box.findData("auto"))
        page.ollama_host.setText("http://127.0.0.1:9")  # no Ollama here
        page.openai_url.setText(server.url)
        page.openai_model.setText(server.models[0])
        with qtbot.waitSignal(dialog.tested, timeout=20000) as blocker:
            page.test_button.click()
    output = page.test_output.toPlainText()
    first = output.splitlines()[0]
    assert first == {"en": "Works: Automatic uses openai.", "ja": "使えます。自動では openai を使います。"}[language]
    assert "✗" not in output and "gemini" not in output and "embedded" not in output
    assert "ollama" in output.splitlines()[-1]  # said once, as not found here
    assert all(ok for ok, _ in blocker.args[0])
    dialog.close()
