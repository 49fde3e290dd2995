"""``monchat status`` and ``monchat doctor``: what is set up and working, and how to fix what is not."""

from __future__ import annotations

from ..core.vocabulary.states import GateState
from .output import print_json
from .words import learning_lines


def register_status(sub) -> None:
    p = sub.add_parser("status", help="backend, unflushed files, gate, memory counts")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_status)


def register_doctor(sub) -> None:
    p = sub.add_parser("doctor", help="check every backend and the data folder; say how to fix")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_doctor, without_database=_doctor_without_database)


GATE_WORDS = {GateState.OK: "ok", GateState.WARN: "a flush is recommended",
              GateState.STOP: "chat is paused until a flush"}


def cmd_status(app, args) -> int:
    status = app.status.report()
    if args.json:
        return print_json(status)
    size = status["model_size"]
    stated = f", {size['label']} parameters" if size else ""
    from ..core.doctor import NO_MODEL_WORDS  # an empty openai.model is the server's first, never "()"
    model = status["model"] or NO_MODEL_WORDS.get(status["backend"], "no model set")
    print(f"backend:   {status['backend']} ({model}{stated})")
    if status["backend_problem"]:
        problem = status["backend_problem"]
        print(f"warning:   not running: {problem['message']} {problem['hint']}".rstrip())
    if status["context_length"]:
        source = f" — {status['context_source']}" if status["context_source"] else ""
        print(f"context:   {status['context_length']:,} tokens{source}")
    if size and size["small"]:
        from ..core.backends.model_size import SUGGESTION
        print(f"warning:   a small model: memory built with it will be unreliable, and a flush puts nothing into "
              f"lasting memory without your approval; for memory you can rely on use {SUGGESTION}")
    from ..core.privacy.cloud import Destination
    where = status["memory_goes_to"]
    goes_to = Destination(where["backend"], where["model"], where["where"], where["local"])
    held = f"; not contacted: {where['held']} (asked before the first message goes there)" if where["held"] else ""
    print(f"privacy:   your memory is sent to {goes_to.sentence()}{held}")
    print(f"logs:      {status['unflushed_files']} unflushed file(s) — {GATE_WORDS[status['gate']]}"
          f" (warn at {status['warn_at']}, stop at {status['stop_at']})")
    print(f"archive:   {status['archived_messages']} message(s)")
    rows, items = status["review_rows"], status["review_queue"]
    alike = f" ({items} items, near-duplicates as one)" if items != rows else ""
    print(f"memory:    {status['layers'].get('layer1', 0)} lasting, {status['layers'].get('layer2', 0)} recent,"
          f" {rows} waiting for your review{alike}")
    for line in learning_lines(app.learning):
        print(f"learned:   auto-approve {line}")
    if status["quarantined_lines"]:
        print(f"warning:   {status['quarantined_lines']} unreadable log line(s) kept in "
              f"{app.paths.quarantine_dir}")
    for line in _controls_lines(status):
        print(line)
    if status["database_warning"]:
        print(f"warning:   {status['database_warning']}")
    for warning in status["settings_warnings"]:
        print(f"settings:  {warning}")
    print(f"data:      {status['data_dir']}")
    return 0


def _controls_lines(status: dict) -> list[str]:
    """The user's own controls, when any is in use (``cli/memory.py``, ``cli/privacy.py`` turn them)."""
    lines = []
    if status["memory_paused"]:
        lines.append(f"paused:    memory is paused since {status['memory_paused']}: flushes archive and propose "
                     "nothing (`monchat memory resume`)")
    off = status["off_record"]
    if off["messages"]:
        lines.append(f"off the record: {off['messages']} message(s), removed {off['hours']} hours after each")
    if status["never_rules"]:
        lines.append(f"never:     {status['never_rules']} never-remember rule(s) (`monchat memory never list`)")
    return lines


def cmd_doctor(app, args) -> int:
    from ..core.doctor import run_doctor
    report = run_doctor(app)
    if args.json:
        print_json(report)
    else:
        for section in report["sections"]:
            mark = "ok " if section["ok"] else "!! "
            print(f"{mark}{section['title']}")
            for check in section["checks"]:
                print(f"   {'✓' if check['ok'] else '✗'} {check['name']}: {check['detail']}")
                if not check["ok"] and check.get("hint"):
                    print(f"     → {check['hint']}")
        print(f"\nchat will use: {report['chosen']}")
    return 0 if report["ok"] else 1


def _doctor_without_database(args, error) -> int:
    """Doctor still says what is wrong with the database, and what can be seen of the data folder."""
    from ..core.paths import Paths
    from .degraded import doctor_without_database
    return doctor_without_database(Paths.from_env(), error, args.json)
