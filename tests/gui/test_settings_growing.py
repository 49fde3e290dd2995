"""Settings → Growing memory (gui/settings/growing.py): every control saves its setting, ranges are CHECKS',
the tiers' order is enforced, Japanese labels; ``background.warm_start`` off means no warm-up after a flush."""

from __future__ import annotations

import tomllib

from PySide6.QtWidgets import QCheckBox

from monchat.core.settings import CHECKS, Settings
from monchat.gui.kit.pages import tab_index
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer

LISTED = {"background.reflect", "background.diary", "background.gap_hint", "background.structural_gap_after",
          "background.skill_half_life_days", "background.lint", "background.lint_llm", "background.warm_start",
          "flush.auto_approve_preferences", "flush.preference_half_life_days", "tiers.hot_days", "tiers.warm_days",
          "tiers.cold_days", "tiers.evidence_stretch", "tiers.max_stretch", "tiers.digest", "tiers.digest_min_items",
          "tiers.digest_max_slots", "graph.enabled", "graph.edge_threshold", "graph.weight_co_occurrence",
          "graph.weight_session_overlap", "graph.weight_adamic_adar", "graph.weight_type_affinity",
          "graph.weight_similarity"}


def growing_page(dialog):
    return dialog.growing


def test_every_control_writes_its_setting_to_settings_toml_and_the_running_settings(window, app, qtbot):
    dialog = window.open_settings()
    page = growing_page(dialog)
    assert set(page.controls) == LISTED
    defaults = Settings()
    wanted = {}
    for dotted, control in page.controls.items():
        section, _, key = dotted.partition(".")
        default = getattr(getattr(defaults, section), key)
        assert page.value(dotted) == default  # shows the running value
        if isinstance(control, QCheckBox):
            control.setChecked(not default)
        else:
            control.setValue(control.maximum())  # the largest value CHECKS accepts (hot = warm = cold is allowed)
        wanted[dotted] = page.value(dotted)
        assert wanted[dotted] != default
    with qtbot.waitSignal(dialog.saved, timeout=2000):
        assert dialog.save(), dialog.message.text()
    saved = tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))
    for dotted, value in wanted.items():
        section, _, key = dotted.partition(".")
        assert saved[section][key] == value, dotted
        assert getattr(getattr(app.settings, section), key) == value, dotted  # in place, for every service


def test_each_number_allows_exactly_what_settings_toml_accepts(window):
    dialog = window.open_settings()
    for dotted, control in growing_page(dialog).controls.items():
        if isinstance(control, QCheckBox):
            continue
        check = CHECKS[dotted]
        low, high = control.minimum(), control.maximum()
        assert check(low) and check(high), dotted
        assert not check(low - 0.01) and not check(high + 0.01), dotted  # the box cannot go past what loads
        control.setValue(high + 1000)
        assert control.value() == high
    dialog.close()


def test_the_dialog_refuses_tiers_whose_idle_days_do_not_grow(window, app):
    dialog = window.open_settings()
    page = growing_page(dialog)
    page.controls["tiers.hot_days"].setValue(90)  # above warm_days 60
    assert not dialog.save()
    assert dialog.message.text().startswith("Not saved:") and "“often” at most “now and then”" in dialog.message.text()
    assert dialog.isVisible() and not app.paths.settings_path.exists() and app.settings.tiers.hot_days == 14.0
    page.controls["tiers.warm_days"].setValue(90)
    assert dialog.save()
    assert app.settings.tiers.hot_days == 90.0 and app.settings.tiers.warm_days == 90.0


def test_the_page_reads_in_japanese(make_window):
    dialog = make_window("ja").open_settings()
    page = growing_page(dialog)
    assert dialog.tabs.tabText(tab_index(dialog.tabs, page)) == "育つ記憶"
    assert page.controls["background.warm_start"].text() == "モデルを温めておく"
    assert page.controls["background.reflect"].text() == "整理のあとに振り返る"
    dialog.close()


def flush_in_window(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 30, "覚えておいて、私は仙台に住んでいます。")
    window = make_window("en")
    backend.enqueue(item_answer("仙台に住んでいる", "home/city"))
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].run_id is not None  # a flush that saved a new prompt (the window would warm it)
    assert window.runner.drain(5000)
    dialog.close_button.click()


def test_with_warm_start_off_a_flush_sends_no_warm_up(app, make_window, backend, qtbot):
    app.settings.background.warm_start = False
    flush_in_window(app, make_window, backend, qtbot)
    assert backend.warmed == []


def test_with_warm_start_on_the_same_flush_warms(app, make_window, backend, qtbot):
    assert app.settings.background.warm_start  # the default
    flush_in_window(app, make_window, backend, qtbot)
    assert len(backend.warmed) == 1


def test_every_number_on_the_page_starts_at_one_edge_in_both_languages(make_window, qtbot):
    """Issue 24: the Growing memory page's fields were not aligned (each group's labels set its own column)."""
    from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox
    for language in ("en", "ja"):
        dialog = make_window(language).open_settings()
        page = growing_page(dialog)
        dialog.tabs.setCurrentIndex(tab_index(dialog.tabs, page))
        qtbot.waitUntil(page.isVisible, timeout=2000)
        numbers = [c for c in page.controls.values() if isinstance(c, (QSpinBox, QDoubleSpinBox))]
        assert len(numbers) > 10
        lefts = {number.mapTo(page, number.rect().topLeft()).x() for number in numbers}
        assert len(lefts) == 1, lefts
        assert len({number.width() for number in numbers}) == 1  # and as wide as each other
        dialog.close()
