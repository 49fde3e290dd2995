"""How large the chat system prompt gets as memory grows (tokens, cl100k).

Run: .venv/bin/python benchmarks/bench_memory.py [--quick]

Lasting (Layer 1) memories, one in 50 pinned, are stored and the prompt is compiled
as a flush compiles it (``compile_prompt``: weakest left out over the budget); the
figure is the rendered system prompt. Baselines from the same run: the prompt with
no memory and the memory budget (``flush.memory_token_budget``).
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from monchat.app import build_app
from monchat.core.memory.prompt import compile_prompt, save_selection
from monchat.core.records.memory import MemoryRecord
from monchat.core.vocabulary.states import State
from monchat.core.store.memories import MemoryStore
from monchat.core.tokens import count_tokens
from tests.support.scripted import ScriptedBackend

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)
SIZES = {"smoke": (10, 100, 500), "quick": (100, 1_000, 5_000), "full": (100, 1_000, 5_000)}
PIN_EVERY = 50


def _record(n: int) -> MemoryRecord:
    at = NOW - timedelta(days=n % 300)
    return MemoryRecord(id=f"m{n:05d}", text=f"{n}番目の覚えごと: 週末に緑茶を淹れてギターを弾く", slot=f"habit/{n}",
                        kind="habit", state=State.ACTIVE, score=0.8, confidence=0.5 + (n % 50) / 100,
                        pinned=int(n % PIN_EVERY == 0), valid_at=at.isoformat(), created_at=at.isoformat(),
                        updated_at=at.isoformat(), last_evidence_epoch=at.timestamp())


def measure(size: str = "full") -> dict:
    """memory_prompt_tokens at each size, with the empty prompt and the budget as baselines."""
    rows: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as home:
        app = build_app(home, pinned_backend=ScriptedBackend(), clock=lambda: NOW, tz=timezone.utc)
        store = MemoryStore(app.store)
        persona = app.chat.persona(None)
        stored = 0
        for count in (0, *SIZES[size]):  # memory grows: each size adds to the last
            with app.store.atomic():
                for n in range(stored, count):
                    store.insert(_record(n))
            stored = count
            selection = compile_prompt(store, app.settings.flush, NOW)
            save_selection(app.store, selection)
            rows[count] = {"tokens": count_tokens(app.chat.system_prompt(persona)),
                          "included": selection.budget["included"], "pinned_tokens": selection.budget["pinned_tokens"]}
        budget = app.settings.flush.memory_token_budget
        app.close()
    sizes = SIZES[size]
    return {"memory_prompt_tokens": {f"memories_{n}": rows[n]["tokens"] for n in sizes},
            "memory_prompt_included": {f"memories_{n}": rows[n]["included"] for n in sizes},
            "memory_prompt_pinned_tokens": {f"memories_{n}": rows[n]["pinned_tokens"] for n in sizes},
            "memory_prompt_baseline_no_memory_tokens": rows[0]["tokens"], "memory_token_budget": budget}


if __name__ == "__main__":
    print(json.dumps(measure("quick" if "--quick" in sys.argv else "full"), indent=2))
