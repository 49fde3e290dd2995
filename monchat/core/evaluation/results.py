"""Saved runs: each result a JSON file beside the data folder (``<data folder>-eval/``), never in it, so the
user's data folder stays byte-for-byte as it was (``monchat eval results`` lists them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..paths import write_private


def results_dir(data_dir: Path) -> Path:
    return data_dir.parent / f"{data_dir.name}-eval"


def save(result: dict, data_dir: Path) -> Path:
    folder = results_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = re.sub(r"[^0-9T]", "", result["started"])[:15]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{stamp}-{result['set']}-{result['backend']}-{result['model']}")
    path = folder / f"{name}.json"
    write_private(path, json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    return path


def saved(data_dir: Path) -> list[dict]:
    """The saved results, oldest first (a file that is not one is left out)."""
    found = []
    for path in sorted(results_dir(data_dir).glob("*.json")):
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(result, dict) and "present" in result:
            found.append({**result, "file": str(path)})
    return sorted(found, key=lambda r: str(r.get("started", "")))


def score_line(result: dict) -> str:
    """``5 of 6 kept, 4 of 5 retired, 3 of 4 clean, 0 invented, 4 of 5 answered``."""
    p, r, n, q = result["present"], result["retired"], result["never"], result["questions"]
    return (f"{p['kept']} of {p['of']} kept, {r['retired']} of {r['of']} retired, {n['clean']} of {n['of']} clean, "
            f"{result['invented']} invented, {q['right']} of {q['of']} answered")


def last_score(data_dir: Path, set_name: str, model: str) -> dict | None:
    """The newest saved run of this set with this model, if any (the model catalog and Settings → Model)."""
    runs = [r for r in saved(data_dir) if r.get("set") == set_name and r.get("model") == model]
    return runs[-1] if runs else None
