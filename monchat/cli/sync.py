"""``monchat sync``, ``monchat sync setup FOLDER --name NAME``, ``monchat sync status [--json]``: one history on
every device through a synced folder (``core/sync/``, ``docs/sync.md``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .output import print_result


def register(sub) -> None:
    p = sub.add_parser("sync", help="one history on every device through a synced folder: import what other "
                                    "devices wrote, export what this one wrote (setup, status)")
    p.add_argument("--json", action="store_true", help="print what was done as JSON")
    p.set_defaults(run=cmd_sync)
    actions = p.add_subparsers(dest="sync_action", metavar="ACTION")
    setup = actions.add_parser("setup", help="sync through FOLDER (a Syncthing or Dropbox folder, a USB stick)")
    setup.add_argument("folder", metavar="FOLDER", help="the synced folder (it must exist)")
    setup.add_argument("--name", required=True, help="this device's name, as the others show it (e.g. laptop)")
    setup.add_argument("--encrypt", action="store_true",
                       help="encrypt everything this device writes to the folder with a passphrase (asked twice on a "
                            "terminal, read from stdin or MONCHAT_SYNC_PASSPHRASE; kept in the OS keyring); to join "
                            "an encrypted folder, the passphrase it was encrypted with")
    setup.add_argument("--json", action="store_true")
    setup.set_defaults(run=cmd_setup)
    status = actions.add_parser("status", help="this device, the others, deletions waiting, conflict copies")
    status.add_argument("--json", action="store_true")
    status.set_defaults(run=cmd_status)


def cmd_setup(app, args) -> int:
    folder = Path(args.folder)
    device = app.sync.setup(folder, args.name, _passphrase(folder) if args.encrypt else None)
    kept = app.sync.passphrase_kept
    lines = [f"This device is {device.name!r} ({device.id}), syncing through {device.folder}."]
    if kept:
        lines.append("Everything this device writes to the folder is encrypted with the passphrase. Keep it "
                     "somewhere safe: without it no computer can read the folder (each keeps its own history).")
        lines.append("The passphrase is kept in the OS keyring." if kept == "keyring" else
                     "This computer has no OS keyring that keeps the passphrase: set MONCHAT_SYNC_PASSPHRASE for "
                     "each `monchat sync` (and before starting the window), or type it in Settings → Sync.")
    lines.append("Run `monchat sync` to export this device's history and import the others'.")
    return print_result({"id": device.id, "name": device.name, "folder": device.folder, "encrypted": bool(kept),
                         "passphrase": kept or None}, args.json, lines)


def _passphrase(folder: Path) -> str:
    """``--encrypt``'s passphrase: ``MONCHAT_SYNC_PASSPHRASE``, else typed (twice for a new encryption) on a
    terminal, else a line of stdin."""
    from ..core.errors import InputError
    from ..core.sync.crypto import PASSPHRASE_ENV, read_key_file
    if os.environ.get(PASSPHRASE_ENV):
        return os.environ[PASSPHRASE_ENV]
    if sys.stdin.isatty():
        import getpass
        joining = read_key_file(folder.expanduser()) is not None
        typed = getpass.getpass("The sync folder's passphrase (not shown): " if joining else
                                "A passphrase to encrypt the sync folder (not shown): ")
        if not joining and typed and getpass.getpass("The same passphrase again: ") != typed:
            raise InputError("The two passphrases differ.", "Run the setup again and type the same one twice.")
    else:
        typed = sys.stdin.readline().rstrip("\r\n")
    if not typed:
        raise InputError("No passphrase was given.", f"Type it when asked, pipe it on stdin, or set {PASSPHRASE_ENV}.")
    return typed


def cmd_sync(app, args) -> int:
    report = app.sync.run()
    lines = []
    if report.nothing:
        lines.append("Nothing to do: this device and the folder are in step.")
    if report.exported:
        lines.append(f"exported {report.exported} message(s) to this device's journal")
    if report.from_devices:  # named as their owners named them (device.json), the id beside the name
        from ..core.sync.status import sync_status
        names = {other.id: other.name for other in sync_status(app.sync).devices}
        for device, count in sorted(report.from_devices.items()):
            lines.append(f"imported {count} message(s) from {names.get(device) or 'device'} ({device})")
    if report.deletions_applied:
        lines.append(f"deleted {report.deletions_applied} message(s) another device deleted")
    if report.tombstones_written:
        lines.append(f"wrote {report.tombstones_written} deletion(s) for the other devices")
    if report.lines_scrubbed:
        lines.append(f"removed {report.lines_scrubbed} deleted line(s) from this device's journal")
    if report.deletions_deferred:
        lines.append(f"{report.deletions_deferred} deletion(s) wait for the running flush (done at the next sync)")
    if report.repaired:
        lines.append(f"wrote again {report.repaired} journal file(s) of this device that were changed elsewhere")
    if report.decisions_exported:
        lines.append(f"wrote {report.decisions_exported} decision(s) about memory for the other devices")
    if report.decisions_applied:
        lines.append(f"made {report.decisions_applied} decision(s) the other devices made about memory")
    if report.decisions_waiting:
        lines.append(f"{report.decisions_waiting} decision(s) wait for the messages they rest on (a later sync)")
    if report.decisions_deferred:
        lines.append(f"{report.decisions_deferred} decision(s) wait for the running flush (made at the next sync)")
    if report.conflicts_opened:
        lines.append(f"{report.conflicts_opened} memory change(s) made on two devices at once: decide them in the "
                     "review queue (`monchat memory queue`)")
    if report.decisions_scrubbed:
        lines.append(f"removed {report.decisions_scrubbed} decision line(s) that quoted a deleted message")
    for path in report.torn:
        lines.append(f"not whole yet (read at a later sync): {path}")
    if report.bad_lines:
        lines.append(f"skipped {report.bad_lines} line(s) that are not messages")
    if report.refused:
        lines.append(f"refused {report.refused} sealed line(s) that do not belong to the file holding them "
                     "(moved from another file, or damaged): never read")
    for path in report.conflicts:
        lines.append(f"conflict copy (never read): {path}")
    return print_result(report.as_dict(), args.json, lines)


def _shown(app, when: str | None) -> str:
    """A time another device wrote (ISO, its own zone) as this computer's clock reads it; ``--json`` keeps ISO."""
    from ..core.types import parse_ts
    if not when:
        return "never"
    try:
        return parse_ts(when).astimezone(app.clock().tzinfo).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return when  # as the device wrote it: not ours to refuse


def cmd_status(app, args) -> int:
    from ..core.sync.status import sync_status
    status = sync_status(app.sync)
    lines = [f"this device: {status.device['name']} ({status.device['id']})", f"folder: {status.folder} "
             f"({status.folder_size:,} bytes{', encrypted' if status.encrypted else ''})"]
    if not status.devices:
        lines.append("no other device has written to the folder yet")
    for device in status.devices:
        lines.append(f"device {device.name or '?'} ({device.id}): last wrote {_shown(app, device.last_write)}")
    for waiting in status.deletions_waiting:
        lines.append(f"deletion of {waiting.id} ({waiting.deleted_at}) waits on: {', '.join(waiting.waiting_on)}")
    for path in status.conflict_copies:
        lines.append(f"conflict copy (never read): {path}")
    if status.conflicts_open:
        lines.append(f"{status.conflicts_open} memory change(s) made on two devices wait in the review queue")
    if status.decisions_waiting:
        lines.append(f"{status.decisions_waiting} decision(s) wait for the messages they rest on")
    return print_result(status.as_dict(), args.json, lines)
