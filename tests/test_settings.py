"""settings.toml: typed defaults, warnings instead of crashes, set_value, private files."""

from __future__ import annotations

import os
import stat

import pytest

from monchat.core.errors import SettingsError
from monchat.core.paths import Paths, write_private
from monchat.core.settings import Settings, empty_model_names, load_settings, save_settings, set_value


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_missing_file_means_defaults(tmp_path):
    settings, warnings = load_settings(tmp_path / "settings.toml")
    assert warnings == []
    assert settings == Settings()
    assert settings.chat.persona == "hana"
    assert settings.chat.window_hours == 12
    assert (settings.gate.warn_files, settings.gate.stop_files) == (3, 5)


def test_good_values_are_read(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('[chat]\npersona = "ren"\nwindow_hours = 6\n[ollama]\ntimeout_s = 30\n', encoding="utf-8")
    settings, warnings = load_settings(path)
    assert warnings == []
    assert settings.chat.persona == "ren" and settings.chat.window_hours == 6
    assert settings.ollama.timeout_s == 30.0 and isinstance(settings.ollama.timeout_s, float)


@pytest.mark.parametrize("toml, words", [
    ('[chat]\nwindow_hours = "twelve"\n', ["chat.window_hours", "expected int"]),
    ("[chat]\nwindow_hours = true\n", ["chat.window_hours", "expected int"]),
    ("[chat]\nwindow_hours = -3\n", ["chat.window_hours", "out of range"]),
    ("[gate]\nstop_files = 0\n", ["gate.stop_files", "out of range"]),
    ('[backend]\nname = "claude"\n', ["backend.name", "out of range"]),
    ("[flush]\nlayer2_threshold = 1.5\n", ["flush.layer2_threshold", "out of range"]),
    ("[chat]\ncolour = \"blue\"\n", ["unknown setting chat.colour"]),
    ("[theme]\ndark = true\n", ["unknown section [theme]"]),
    ('chat = "hana"\n', ["[chat] must be a table"]),
    ("[gate]\nwarn_files = 6\nstop_files = 5\n", ["gate.warn_files is above gate.stop_files"]),
])
def test_bad_values_warn_and_fall_back(tmp_path, toml, words):
    path = tmp_path / "settings.toml"
    path.write_text(toml + '[ollama]\nmodel = "qwen3:4b"\n', encoding="utf-8")
    settings, warnings = load_settings(path)
    assert len(warnings) == 1, warnings
    for word in words:
        assert word in warnings[0]
    defaults = Settings()
    assert settings.chat == defaults.chat
    assert settings.gate == defaults.gate
    assert settings.backend == defaults.backend
    assert settings.flush == defaults.flush
    assert settings.ollama.model == "qwen3:4b"  # the good value next to a bad one is kept


@pytest.mark.parametrize("content", [b"[chat\npersona = 'x'", b"persona = = 1", b"\xff\xfe[chat]"])
def test_broken_toml_warns_and_uses_all_defaults(tmp_path, content):
    path = tmp_path / "settings.toml"
    path.write_bytes(content)
    settings, warnings = load_settings(path)
    assert settings == Settings()
    assert len(warnings) == 1 and "not valid TOML" in warnings[0]
    assert path.read_bytes() == content  # left as it is for the user to fix


def test_set_value_accepts_valid_values():
    settings = Settings()
    set_value(settings, "gate.warn_files", "4")
    set_value(settings, "flush.layer2_threshold", "0.6")
    set_value(settings, "flush.ask_before_layer1", "true")
    set_value(settings, "ollama.model", "qwen3:8b")  # not TOML: taken as text
    set_value(settings, "ollama.host", '"http://127.0.0.1:11500"')  # quoted TOML string
    set_value(settings, "flush.fixed_personas", '["lifestyle", "emotional"]')
    assert settings.gate.warn_files == 4
    assert settings.flush.layer2_threshold == 0.6
    assert settings.flush.ask_before_layer1 is True
    assert settings.ollama.model == "qwen3:8b"
    assert settings.ollama.host == "http://127.0.0.1:11500"
    assert settings.flush.fixed_personas == ["lifestyle", "emotional"]


def test_set_value_takes_text_settings_as_text():
    settings = Settings()
    set_value(settings, "ollama.keep_alive", "-1")  # Ollama's "keep loaded forever"
    set_value(settings, "chat.persona", "2024")
    assert settings.ollama.keep_alive == "-1"
    assert settings.chat.persona == "2024"


def test_set_value_checks_the_gate_pair_against_current_values():
    settings = Settings()
    set_value(settings, "gate.stop_files", "10")
    set_value(settings, "gate.warn_files", "7")  # above the default stop (5), below the current (10)
    assert (settings.gate.warn_files, settings.gate.stop_files) == (7, 10)
    with pytest.raises(SettingsError):
        set_value(settings, "gate.stop_files", "6")  # would fall below warn_files
    assert (settings.gate.warn_files, settings.gate.stop_files) == (7, 10)


@pytest.mark.parametrize("key, value", [
    ("gate.warn_files", "many"),
    ("gate.warn_files", "0"),
    ("gate.warn_files", "9"),  # above stop_files (5)
    ("chat.window_hours", "1.5"),
    ("flush.judge_confidence", "2"),
    ("backend.name", "claude"),
    ("chat.nothing", "1"),
    ("nosection.key", "1"),
    ("gate", "3"),
])
def test_set_value_refuses_invalid_values(key, value):
    settings = Settings()
    with pytest.raises(SettingsError) as caught:
        set_value(settings, key, value)
    assert caught.value.hint
    assert settings == Settings()  # nothing changed


def test_an_empty_model_name_is_named_by_its_backend():
    settings = Settings()
    assert empty_model_names(settings) == []
    settings.ollama.model = "  "
    assert empty_model_names(settings) == ["ollama"]
    settings.gemini.model = ""
    assert empty_model_names(settings) == ["ollama", "gemini"]


def test_no_override_model_and_the_bundled_embedded_model_are_not_empty_names():
    settings = Settings()
    settings.backend.model = ""
    settings.embedded.model_path = ""
    assert empty_model_names(settings) == []


def test_save_and_load_round_trip(tmp_path):
    settings = Settings()
    set_value(settings, "chat.persona", "mira")
    set_value(settings, "gate.warn_files", "2")
    set_value(settings, "flush.half_life_days", "30.5")
    set_value(settings, "backend.escalation", "ollama:qwen3:14b")
    path = tmp_path / "config" / "settings.toml"
    save_settings(settings, path)
    loaded, warnings = load_settings(path)
    assert warnings == []
    assert loaded == settings
    assert mode(path) == 0o600


def test_paths_ensure_makes_private_folders(tmp_path):
    paths = Paths.from_env(tmp_path / "home").ensure()
    folders = [paths.data_dir, paths.config_dir, paths.logs_dir, paths.quarantine_dir,
               paths.user_surface_dir, paths.user_filter_dir]
    for folder in folders:
        assert folder.is_dir()
        assert mode(folder) == 0o700, folder
    assert paths.settings_path.parent == paths.config_dir
    assert paths.db_path.parent == paths.data_dir


def test_paths_ensure_tightens_an_existing_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    Paths.from_env(home).ensure()
    assert mode(home) == 0o700


def test_monchat_home_puts_everything_in_one_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "elsewhere"))
    paths = Paths.from_env()
    assert paths.data_dir == paths.config_dir == (tmp_path / "elsewhere").resolve()


def test_write_private_makes_0600_even_over_a_public_file(tmp_path):
    path = tmp_path / "sub" / "memory.md"
    path.parent.mkdir()
    path.write_text("old")
    os.chmod(path, 0o644)
    write_private(path, "新しい内容")
    assert path.read_text(encoding="utf-8") == "新しい内容"
    assert mode(path) == 0o600
    assert not list(path.parent.glob(".*.tmp"))  # no temp file left behind
    write_private(tmp_path / "new" / "deep.bin", b"\x00\x01")
    assert mode(tmp_path / "new") == 0o700
    assert mode(tmp_path / "new" / "deep.bin") == 0o600
