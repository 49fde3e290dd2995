"""The app's packaging (packaging/, docs/packaging.md): one id across the launcher, the AppStream data, the icons;
the metainfo's newest release is monchat's version; install.sh installs, reinstalls and removes exactly its own
files in a home, never the data folder, never another install's ``~/.local/bin/monchat``.

The bundle itself is built and run bare by ``packaging/build`` and ``packaging/check`` in .ci/run."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import monchat

PACKAGING = Path(__file__).resolve().parents[1] / "packaging"
APP_ID = "io.github.monchat.monchat"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def test_the_launcher_the_metainfo_and_the_icons_share_one_id():
    desktop = (PACKAGING / f"{APP_ID}.desktop").read_text()
    root = ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == f"{APP_ID}.desktop"
    assert f"\nIcon={APP_ID}\n" in desktop
    assert "\nName[ja]=" in desktop and "\nGenericName[ja]=" in desktop and "\nComment[ja]=" in desktop


def test_the_newest_release_is_this_version_with_its_date():
    root = ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()
    newest = root.find("releases/release")
    assert newest is not None
    assert newest.get("version") == monchat.__version__
    assert len(newest.get("date", "")) == 10


def _fake_bundle(tmp_path: Path) -> Path:
    """A bundle folder as packaging/build lays it out, with a shell script for the frozen monchat."""
    bundle = tmp_path / "monchat-x-linux-x86_64"
    (bundle / "_internal").mkdir(parents=True)
    shutil.copy(PACKAGING / "install.sh", bundle / "install.sh")
    (bundle / "monchat").write_text("#!/bin/sh\necho monchat bundled\n")
    (bundle / "monchat").chmod(0o755)
    share = bundle / "share"
    (share / "applications").mkdir(parents=True)
    shutil.copy(PACKAGING / f"{APP_ID}.desktop", share / "applications")
    (share / "metainfo").mkdir()
    shutil.copy(PACKAGING / f"{APP_ID}.metainfo.xml", share / "metainfo")
    for size in SIZES:
        (share / f"icons/hicolor/{size}x{size}/apps").mkdir(parents=True)
        (share / f"icons/hicolor/{size}x{size}/apps/{APP_ID}.png").write_bytes(b"png")
    (share / "icons/hicolor/scalable/apps").mkdir(parents=True)
    shutil.copy(PACKAGING.parent / "assets" / "monchat.svg", share / f"icons/hicolor/scalable/apps/{APP_ID}.svg")
    return bundle


def _run(bundle: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    return subprocess.run(["/bin/sh", str(bundle / "install.sh"), *args], env=env, capture_output=True, text=True,
                          timeout=60)


CACHES = ("mimeinfo.cache", "icon-theme.cache")  # the cache tools' own files, where those tools are installed


def _files(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*") if (p.is_file() or p.is_symlink()) and p.name not in CACHES}


def test_install_sh_puts_its_files_twice_harmlessly_and_takes_exactly_them_back(tmp_path):
    bundle, home = _fake_bundle(tmp_path), tmp_path / "home"
    data = home / ".local/share/monchat/monchat.db"
    data.parent.mkdir(parents=True)
    data.write_text("the user's memory")
    assert _run(bundle, home).returncode == 0
    first = _files(home)
    done = _run(bundle, home)
    assert done.returncode == 0, done.stderr
    assert _files(home) == first
    ours = {".local/bin/monchat", f".local/share/applications/{APP_ID}.desktop",
            f".local/share/metainfo/{APP_ID}.metainfo.xml", f".local/share/icons/hicolor/scalable/apps/{APP_ID}.svg"}
    ours |= {f".local/share/icons/hicolor/{s}x{s}/apps/{APP_ID}.png" for s in SIZES}
    assert first == ours | {".local/share/monchat/monchat.db"}
    assert os.readlink(home / ".local/bin/monchat") == str(bundle.resolve() / "monchat")
    launcher = (home / f".local/share/applications/{APP_ID}.desktop").read_text()
    assert f"\nExec={home}/.local/bin/monchat\n" in launcher  # ~/.local/bin is not on every session's PATH

    for _ in range(2):
        gone = _run(bundle, home, "--uninstall")
        assert gone.returncode == 0, gone.stderr
        assert _files(home) == {".local/share/monchat/monchat.db"}
    assert data.read_text() == "the user's memory"


def test_install_sh_leaves_another_installs_monchat_alone(tmp_path):
    bundle, home = _fake_bundle(tmp_path), tmp_path / "home"
    pipx = home / ".local/bin/monchat"
    pipx.parent.mkdir(parents=True)
    pipx.write_text("#!/bin/sh\n# pipx's monchat\n")
    refused = _run(bundle, home)
    assert refused.returncode == 2 and "another monchat" in refused.stderr
    assert _run(bundle, home, "--uninstall").returncode == 0
    assert pipx.read_text() == "#!/bin/sh\n# pipx's monchat\n"


def test_install_sh_says_how_it_is_used(tmp_path):
    done = _run(_fake_bundle(tmp_path), tmp_path / "home", "--remove")
    assert done.returncode == 2 and "usage" in done.stderr


def test_version_says_which_monchat_this_is(capsys):
    from monchat.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"monchat {monchat.__version__}\n"
