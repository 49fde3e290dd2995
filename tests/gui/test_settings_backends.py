"""Settings for the backends: the OpenAI-compatible server, model lists, ollama pull, Gemini without a
keyring, and the role-play switches of a surface persona."""

from __future__ import annotations

import json
import tomllib

from tests.fakes.fake_ollama import running_fake_ollama
from tests.fakes.fake_openai import running_fake_openai
from tests.gui.test_settings_dialog import MemoryKeyring, use_keyring  # noqa: F401 (fixture)
from tests.test_cards import v2_card

# The first model listing imports that server's SDK (monchat loads it only when it is used); on a busy
# machine that takes seconds. Only a guard against a hung test: no time is measured.
LISTING_GUARD_MS = 30_000


def test_without_a_keyring_the_dialog_explains_gemini_api_key(window):
    dialog = window.open_settings()  # the tests' keyring is the "null" one: it keeps nothing
    assert not dialog.model.gemini_key.isEnabled()
    text = dialog.model.gemini_key_state.text()
    assert "no OS keyring" in text and "GEMINI_API_KEY" in text
    dialog.close()


def test_gemini_is_never_saved_as_the_backend_without_a_usable_key(window, app):
    dialog = window.open_settings()
    dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("gemini"))
    assert not dialog.save()
    assert "Gemini needs an API key" in dialog.message.text()
    assert not app.paths.settings_path.exists() and app.settings.backend.name == "auto"
    dialog.close()


def test_gemini_with_a_key_in_the_environment_is_saved(window, app, monkeypatch, qtbot):
    monkeypatch.setenv("GEMINI_API_KEY", "env-key")
    dialog = window.open_settings()
    assert "GEMINI_API_KEY" in dialog.model.gemini_key_state.text()
    dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("gemini"))
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        assert dialog.save()
    assert tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))["backend"]["name"] == "gemini"
    assert "env-key" not in app.paths.settings_path.read_text(encoding="utf-8")


def test_a_typed_gemini_key_the_keyring_keeps_lets_gemini_be_saved(window, app, use_keyring, qtbot):  # noqa: F811
    ring = use_keyring(MemoryKeyring())
    dialog = window.open_settings()
    dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("gemini"))
    dialog.model.gemini_key.setText("typed-key")
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        assert dialog.save()
    assert ring.saved[("monchat", "gemini_api_key")] == "typed-key"


def test_the_openai_server_models_are_listed_and_the_choice_saved(window, app, qtbot, use_keyring):  # noqa: F811
    ring = use_keyring(MemoryKeyring())
    with running_fake_openai() as server:
        dialog = window.open_settings()
        dialog.model.backend_box.setCurrentIndex(dialog.model.backend_box.findData("openai"))
        assert dialog.model.openai_group.isEnabled() and not dialog.model.ollama_group.isEnabled()
        dialog.model.openai_url.setText(server.url)
        with qtbot.waitSignal(dialog.models_listed, timeout=LISTING_GUARD_MS) as blocker:
            dialog.model.openai_model.button.click()
        assert blocker.args == [server.models]
        items = [dialog.model.openai_model.edit.itemText(i) for i in range(dialog.model.openai_model.edit.count())]
        assert items == server.models and dialog.model.openai_model.text() == server.models[0]
        found = len(server.models)  # Qt's plural form, not "model(s)"
        assert dialog.model.message.text() == (f"{found} models found." if found > 1 else "1 model found.")
        dialog.model.openai_ctx.setValue(32768)
        assert dialog.model.openai_format.value() == "auto"
        dialog.model.openai_format.setCurrentIndex(dialog.model.openai_format.findData("json_object"))
        dialog.model.openai_key.setText("sk-local")
        with qtbot.waitSignal(dialog.saved, timeout=2000):
            assert dialog.save()
    text = app.paths.settings_path.read_text(encoding="utf-8")
    saved = tomllib.loads(text)
    assert saved["backend"]["name"] == "openai"
    assert saved["openai"] == {**saved["openai"], "base_url": server.url, "model": server.models[0],
                               "context_length": 32768, "json_mode": "json_object"}
    assert "sk-local" not in text and ring.saved[("monchat", "openai_api_key")] == "sk-local"


def test_a_server_that_is_not_running_is_named_when_listing(window, qtbot):
    from tests.fakes.fake_ollama import dead_url
    dialog = window.open_settings()
    dialog.model.openai_url.setText(dead_url() + "/v1")
    with qtbot.waitSignal(dialog.models_listed, timeout=LISTING_GUARD_MS) as blocker:
        dialog.model.openai_model.button.click()
    assert blocker.args == [[]] and "LM Studio" in dialog.message.text()
    assert dialog.model.openai_model.button.isEnabled()
    dialog.close()


def test_ollama_lists_installed_models_and_pulls_one_with_progress(window, qtbot):
    with running_fake_ollama() as server:
        server.installed = {"gemma3:4b", "qwen3:8b"}
        dialog = window.open_settings()
        dialog.model.ollama_host.setText(server.url)
        with qtbot.waitSignal(dialog.models_listed, timeout=LISTING_GUARD_MS) as blocker:
            dialog.model.ollama_model.button.click()
        assert blocker.args == [["gemma3:4b", "qwen3:8b"]]

        dialog.model.ollama_model.setText("llama3.2:1b")
        with qtbot.waitSignal(dialog.pull_finished, timeout=5000) as pulled:
            dialog.model.pull.button.click()
        assert pulled.args == [True]
        assert "llama3.2:1b is installed" in dialog.model.pull.state.text()
        assert dialog.model.pull.button.isEnabled() and not dialog.model.pull.cancel_button.isEnabled()
        assert [r["body"]["model"] for r in server.requests if r["path"] == "/api/pull"] == ["llama3.2:1b"]
        dialog.close()


def test_a_pull_can_be_cancelled(window, qtbot):
    with running_fake_ollama() as server:
        server.pull_delay_s = 0.2  # a download that takes a while
        dialog = window.open_settings()
        dialog.model.ollama_host.setText(server.url)
        dialog.model.ollama_model.setText("qwen3:8b")
        dialog.model.pull.button.click()
        qtbot.waitUntil(lambda: dialog.model.pull.state.text() == "pulling manifest", timeout=5000)
        assert dialog.model.pull.cancel_button.isEnabled() and not dialog.model.pull.button.isEnabled()
        with qtbot.waitSignal(dialog.pull_finished, timeout=5000) as pulled:
            dialog.model.pull.cancel_button.click()
        assert pulled.args == [False]
        assert "cancelled" in dialog.model.pull.state.text() and dialog.model.pull.button.isEnabled()
        dialog.close()


def test_a_surface_persona_can_stop_being_read_and_stop_receiving_memory(window, app, qtbot, tmp_path):
    dialog = window.open_surface_personas()
    card = tmp_path / "aoi.json"
    card.write_text(json.dumps(v2_card()), encoding="utf-8")
    dialog.import_card_file(card)
    assert not dialog.read_at_flush.isChecked() and dialog.receives_memory.isChecked()  # a card: not read

    dialog.reload("hana")
    assert dialog.read_at_flush.isChecked()
    dialog.read_at_flush.setChecked(False)
    dialog.receives_memory.setChecked(False)
    with qtbot.waitSignal(dialog.personas_changed, timeout=1000):
        assert dialog.save_current()
    saved = tomllib.loads((app.paths.user_surface_dir / "hana.toml").read_text(encoding="utf-8"))
    assert saved["read_at_flush"] is False and saved["receives_memory"] is False
    assert app.personas.surface["hana"].receives_memory is False
    dialog.close()


def test_the_memory_browser_says_whose_conversations_a_memory_came_from(app, backend, window):
    from tests.gui.conftest import log_message
    from tests.gui.flush_script import NO_ITEMS, item_answer
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "覚えておいて：朝はブラックコーヒーを飲む", persona="mira")
    backend.enqueue(item_answer("朝はブラックコーヒー", "drink/morning"))
    app.flush.run()
    browser = window.memory_menu.open_memory()
    browser.set_view("all")
    browser.table.setCurrentItem(browser.table.topLevelItem(0))
    assert "From conversations with: Mira" in browser.facts.text()
    browser.close()
