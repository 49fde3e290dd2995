"""Fuzz the backup manifest parser: any manifest is read or refused with a clear error (exit 2), never 70.

Hypothesis builds manifests of every shape — deep nesting, NaN and ±Infinity, huge integers and
strings, wrong types, bytes that are not UTF-8 — and each is restored through ``monchat restore``'s
own code path, into an empty folder that must stay empty unless the backup was whole.
"""

from __future__ import annotations

import io
import json
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from monchat.cli import main as cli
from monchat.core.errors import KnownError
from monchat.core.paths import Paths
from monchat.core.transfer.restore import read_manifest, restore_backup

SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10**18, max_value=10**40),
                   st.floats(), st.text(max_size=40), st.just("monchat-backup"), st.just(1))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=10), inner, max_size=3)),
                     max_leaves=10)
MANIFEST = st.fixed_dictionaries({}, optional={"format": st.one_of(st.just("monchat-backup"), VALUE),
                                               "version": st.one_of(st.just(1), VALUE),
                                               "created_at": VALUE,
                                               "counts": st.one_of(st.dictionaries(st.sampled_from(
                                                   ["messages", "memories", "x"]), VALUE, max_size=3), VALUE)})


def as_bytes(value) -> bytes:
    return json.dumps(value, allow_nan=True).encode()  # NaN and Infinity as Python writes them


RAW = st.one_of(
    MANIFEST.map(as_bytes),
    VALUE.map(as_bytes),
    st.integers(min_value=1, max_value=200_000).map(lambda n: b"[" * n + b"]" * (n % 3)),
    st.integers(min_value=1, max_value=50_000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    st.integers(min_value=1, max_value=10_000).map(lambda n: b'{"format": "monchat-backup", "version": 1' +
                                                   b"0" * n + b"}"),
    st.binary(max_size=64),
)


def backup_with(manifest: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("monchat-backup.json", manifest)
        z.writestr("config/settings.toml", b"")
    return buffer.getvalue()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=RAW)
def test_any_manifest_is_read_or_refused_clearly(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("fuzz")
    source = folder / "b.zip"
    source.write_bytes(backup_with(raw))
    with zipfile.ZipFile(source) as archive:
        try:
            manifest = read_manifest(source, archive)
        except KnownError as exc:
            assert exc.exit_code == 2 and "Nothing was restored" in exc.message
            return
    counts = manifest.get("counts", {})
    assert isinstance(counts, dict) and all(type(v) is int for v in counts.values())
    target = Paths.from_env(folder / "target")
    try:
        restore_backup(source, target)
    except KnownError as exc:  # counts that say messages exist, with no database
        assert exc.exit_code == 2 and any(counts.values())
        assert not target.data_dir.exists() or not any(target.data_dir.iterdir())


def test_the_deepest_manifest_through_the_cli_is_exit_2(tmp_path, monkeypatch, capsys):
    source = tmp_path / "b.zip"
    source.write_bytes(backup_with(b"[" * 60_000))
    monkeypatch.setenv("MONCHAT_HOME", str(tmp_path / "target"))
    assert cli.main(["restore", str(source)]) == 2
    assert "nested too deeply" in capsys.readouterr().err
