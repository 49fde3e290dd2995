"""Every benchmark figure of monchat, each with its baseline from the same run (``benchmarks/run``).

Usage: benchmarks/run [--json] [--quick | --smoke] [--only NAME]...

Each group builds its own data in a temporary MONCHAT_HOME and uses loopback fake
servers (tests/fakes, TCP_NODELAY) or the embedded model. ``--quick`` runs smaller
sizes and skips the embedded flush; ``--smoke`` runs the smallest sizes, only to show
that every figure is produced (tests/test_benchmarks.py); ``--only`` takes a figure or a group name
(turns, prefix, memory, flush, chat_first, start, gui, embedded, unflushed, models, guard, context) and may
repeat.
The JSON has ``figures`` (value, baseline, what the baseline is, unit), ``details``
(each group's raw numbers) and ``machine`` (cores and load average before and
after: figures taken on a busy machine say so). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

# figure -> (group, key in the group's numbers, key of its baseline, what the baseline is, unit)
FIGURES: dict[str, tuple[str, str, str, str, str]] = {
    "turn_overhead_ms": ("turns", "turn_overhead_ms", "turn_overhead_baseline_ms",
                         "a bare ollama.Client.chat with the same messages to the same server (ms)", "ms"),
    "turn_overhead_ratio": ("turns", "turn_overhead_ratio", "turn_overhead_baseline_ms",
                            "a bare ollama.Client.chat with the same messages to the same server (ms)", "×"),
    "prefix_breaks_per_100_turns": ("prefix", "prefix_breaks_per_100_turns", "prefix_baseline_every_turn",
                                    "a history that changes its start on every turn", "per 100 turns"),
    "requests_over_context": ("prefix", "requests_over_context", "requests_over_context_of",
                              "requests sent (all over num_ctx at worst)", "requests"),
    "memory_prompt_tokens": ("memory", "memory_prompt_tokens", "memory_token_budget",
                             "flush.memory_token_budget (tokens); the prompt with no memory is in details",
                             "tokens"),
    "flush_calls_per_1k_messages": ("flush", "flush_calls_per_1k_messages", "flush_messages",
                                    "messages flushed", "calls"),
    "flush_overhead_s": ("flush", "flush_overhead_s", "flush_overhead_baseline_in_calls_s",
                         "seconds with at least one call in flight", "s"),
    "flush_parallel_ratio": ("flush", "flush_parallel_ratio", "flush_parallel_baseline_slowest_persona_s",
                             "the slowest persona's calls one after another (s)", "×"),
    "flush_background_s": ("flush", "flush_background_s", "flush_background_baseline_slowest_persona_s",
                           "the slowest persona's calls one after another, same flush (s)", "s"),
    "status_start_ratio": ("start", "status_start_ratio", "status_baseline_import_ollama_s",
                           "python -c 'import ollama' (s)", "×"),
    "gui_start_ratio": ("start", "gui_start_ratio", "gui_baseline_bare_window_s",
                        "a bare PySide6 QMainWindow's first paint (s)", "×"),
    "gui_max_stall_ms": ("gui", "gui_max_stall_ms", "gui_max_stall_baseline_idle_ms",
                         "the same timer with the window idle (ms)", "ms"),
    "chat_during_flush_ratio": ("chat_first", "chat_during_flush_ratio", "chat_during_flush_baseline_call_s",
                                "a chat turn with nothing else running, same one-call-at-a-time model (s)", "×"),
    **{f"chat_during_flush_ratio_{kind}": ("chat_first", f"chat_during_flush_ratio_{kind}_now",
                                           f"chat_during_flush_ratio_{kind}_before",
                                           f"the same with the old parallelism ({old} calls sent to a one-slot "
                                           f"stand-in {kind} server), same run", "×")
       for kind, old in (("ollama", 4), ("openai", 2))},
    **{f"flush_s_{kind}": ("chat_first", f"flush_s_{kind}_now", f"flush_s_{kind}_before",
                           f"the same flush and chat turn with the old parallelism ({old} calls sent to the "
                           f"one-slot {kind} stand-in), same run (s)", "s")
       for kind, old in (("ollama", 4), ("openai", 2))},
    "flush_s_four_slots": ("chat_first", "flush_s_four_slots_now", "flush_s_four_slots_before",
                           "the same flush, 4 calls sent as before, to an Ollama answering 4 at once with "
                           "ollama.parallel 4 (s)", "s"),
    "flush_s_four_slots_untold": ("chat_first", "flush_s_four_slots_untold", "flush_s_four_slots_before",
                                  "the same flush with the old parallelism, to an Ollama answering 4 at once whose "
                                  "user left ollama.parallel at 1 (s)", "s"),
    "embedded_decode_tok_s": ("embedded", "embedded_decode_tok_s", "embedded_decode_baseline_llama_cpp_tok_s",
                              "llama-cpp-python's own streamed chat completion, same model (tok/s)", "tok/s"),
    "embedded_turn_s": ("embedded", "embedded_turn_s", "embedded_turn_baseline_first_turn_s",
                        "the first turn, which reads the whole window (s)", "s"),
    "embedded_flush_s": ("embedded", "embedded_flush_s", "embedded_flush_baseline_persona_major_s",
                         "the same flush, one persona after another (s)", "s"),
    "guard_junk_kept": ("guard", "guard_junk_kept", "guard_junk",
                        "junk cases of the guard's corpus, per language (goal: none kept)", "kept"),
    "guard_honest_dropped_pct": ("guard", "guard_honest_dropped_pct", "guard_honest",
                                 "honest cases of the guard's corpus, per language (goal: at most 3 % dropped)", "%"),
    "guard_honest_dropped_by_rule": ("guard", "guard_honest_dropped_by_rule", "guard_honest",
                                     "honest cases each rule dropped, per language", "cases"),
    "guard_junk_kept_by_kind": ("guard", "guard_junk_kept_by_kind", "guard_junk",
                                "junk kept, per language and kind (echo, placeholder, claim, loop, swap…)", "kept"),
    "guard_junk_caught_by_rule": ("guard", "guard_junk_caught_by_rule", "guard_junk",
                                  "junk cases each rule caught, per language (the first rule broken)", "cases"),
    "guard_review": ("guard", "guard_review", "guard_honest",
                     "sent to review as unsure, per language and side (the review load)", "cases"),
    "context_learn_s_2048": ("context", "context_learn_s_2048", "context_learn_baseline_one_token_s_2048",
                             "one 1-token chat request to the same llama_cpp.server at n_ctx 2,048 (s)", "s"),
    "context_learn_s_8192": ("context", "context_learn_s_8192", "context_learn_baseline_one_token_s_8192",
                             "one 1-token chat request to the same llama_cpp.server at n_ctx 8,192 (s)", "s"),
    "flush_parts_8192": ("context", "flush_parts_8192", "flush_parts_before_4096",
                         "the parts of the same 150-message flush planned at the 4,096 used before (issue 39)",
                         "parts"),
}
UNFLUSHED = "unflushed_turns"  # benchmarks/bench_unflushed.py (another change) measures it when present
MODELS = "embedded_models"  # benchmarks/bench_models.py: the embedded figures per installed model
GROUPS = ("start", "turns", "prefix", "memory", "flush", "chat_first", "gui", "embedded", "unflushed", "models",
          "guard", "context")


def run_turns(size: str) -> dict:
    from bench_turns import measure_overhead
    return measure_overhead(size)


def run_prefix(size: str) -> dict:
    from bench_turns import measure_prefix
    return measure_prefix(size)


def run_memory(size: str) -> dict:
    from bench_memory import measure
    return measure(size)


def run_flush(size: str) -> dict:
    from bench_flush_server import measure
    return measure(size)


def run_chat_first(size: str) -> dict:
    from bench_chat_first import measure
    from bench_chat_first_servers import measure as measure_servers
    return {**measure(size), **measure_servers(size)}


def run_start(size: str) -> dict:
    from bench_start import measure_gui, measure_status
    if size == "smoke":  # one launch of each, no warm-up, no wait for the context meter
        return {**measure_status(1, warm_up=False), **measure_gui(1, warm_up=False, meter=False)}
    runs = {"quick": 3, "full": 7}[size]
    return {**measure_status(runs), **measure_gui(runs)}


def run_gui(size: str) -> dict:
    """In a process of its own: a QApplication, the window and a Qt event loop."""
    argv = [sys.executable, str(HERE / "bench_gui_stall.py"), f"--{size}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    if done.returncode != 0:
        raise RuntimeError(f"bench_gui_stall.py exited {done.returncode}: {done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_embedded(size: str) -> dict:
    from bench_embedded import measure
    return measure(size)


def run_models(size: str) -> dict:
    from bench_models import measure
    return measure(size)


def run_context(size: str) -> dict:
    from bench_context import measure
    return measure(size)


def run_unflushed(size: str) -> dict:
    try:
        import bench_unflushed
    except ModuleNotFoundError as exc:
        if exc.name != "bench_unflushed":
            raise
        return {UNFLUSHED: {"not_measured": "benchmarks/bench_unflushed.py is not there"}}
    accepts_quick = "quick" in inspect.signature(bench_unflushed.measure).parameters
    if size != "full" and not accepts_quick:
        return {UNFLUSHED: {"not_measured": f"--{size}: bench_unflushed.measure() has no smaller size"}}
    return {UNFLUSHED: bench_unflushed.measure(quick=size != "full") if accepts_quick else bench_unflushed.measure()}


def run_guard(size: str) -> dict:
    from bench_guard import measure
    return measure(size)


RUNNERS = {"turns": run_turns, "prefix": run_prefix, "memory": run_memory, "flush": run_flush,
           "chat_first": run_chat_first,
           "start": run_start, "gui": run_gui, "embedded": run_embedded, "unflushed": run_unflushed,
           "models": run_models, "guard": run_guard, "context": run_context}


def groups_for(only: list[str]) -> list[str]:
    if not only:
        return list(GROUPS)
    chosen = []
    for name in only:
        group = name if name in RUNNERS else FIGURES.get(name, ("unflushed",) if name == UNFLUSHED else (None,))[0]
        if group is None:
            raise SystemExit(f"benchmarks/run: no figure or group {name!r} "
                             f"(groups: {', '.join(GROUPS)}; figures: {', '.join([*FIGURES, UNFLUSHED])})")
        if group not in chosen:
            chosen.append(group)
    return [g for g in GROUPS if g in chosen]


def collect(size: str, only: list[str]) -> tuple[dict, bool]:
    """The JSON object, and whether every group ran."""
    machine = {"cores": os.cpu_count(), "load_average_before": [round(x, 2) for x in os.getloadavg()],
               "python": platform.python_version(), "platform": platform.platform()}
    details: dict[str, dict] = {}
    ok = True
    for group in groups_for(only):
        started = time.perf_counter()
        try:
            details[group] = RUNNERS[group](size)
        except Exception as exc:  # noqa: BLE001 (one broken group must not hide the others' figures)
            ok = False
            traceback.print_exc()
            details[group] = {"error": f"{type(exc).__name__}: {exc}"}
        details[group]["group_seconds"] = round(time.perf_counter() - started, 1)
        print(f"benchmarks/run: {group} done in {details[group]['group_seconds']} s", file=sys.stderr)
    machine["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    figures = {}
    for name, (group, key, baseline_key, baseline_is, unit) in FIGURES.items():
        if group not in details:
            continue
        numbers = details[group]
        value = numbers.get(key, numbers.get("error", "missing"))
        figures[name] = {"value": value, "baseline": numbers.get(baseline_key), "baseline_is": baseline_is,
                         "unit": unit}
    if "unflushed" in details:
        numbers = details["unflushed"]
        figures[UNFLUSHED] = {"value": numbers.get(UNFLUSHED, numbers.get("error")),
                              "baseline_is": "see the value (bench_unflushed.measure())", "unit": ""}
    if "models" in details:
        numbers = details["models"]
        figures[MODELS] = {"value": numbers.get(MODELS, numbers.get("error")),
                           "baseline_is": "each installed model (bundled SmolLM2 and `monchat models pull`)",
                           "unit": ""}
    return {"mode": size, "machine": machine, "figures": figures, "details": details}, ok


def _cells(value) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [(str(k), _text(v)) for k, v in value.items()]
    return [("", _text(value))]


def _text(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text(v)}" for k, v in value.items())
    return str(value)


def table(result: dict) -> str:
    rows = [("figure", "condition", "value", "baseline", "baseline is")]
    for name, figure in result["figures"].items():
        for condition, value in _cells(figure["value"]):
            baseline = figure.get("baseline")
            if isinstance(baseline, dict):
                baseline = baseline.get(condition, "")
            rows.append((name, condition, f"{value} {figure.get('unit', '')}".strip(), _text(baseline or ""),
                         figure.get("baseline_is", "")))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4] for r in rows]
    machine = result["machine"]
    lines.append(f"\n{result['mode']} run on {machine['cores']} cores; load average before "
                 f"{machine['load_average_before']}, after {machine['load_average_after']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object (else a table)")
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="smaller sizes; skip the embedded flush")
    sizes.add_argument("--smoke", action="store_true", help="the smallest sizes: every figure, none meaningful")
    parser.add_argument("--only", action="append", default=[], metavar="NAME", help="a figure or group (repeatable)")
    args = parser.parse_args(argv)
    result, ok = collect("smoke" if args.smoke else "quick" if args.quick else "full", args.only)
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else table(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
