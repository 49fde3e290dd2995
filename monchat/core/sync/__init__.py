"""One history on every device through a synced folder (issue 41): per-device journals, deletions that travel.

``service.py`` (SyncService: setup, run), ``journal.py`` (this device's files: export, deletions), ``folder.py``
(the layout, conflict copies, whole lines), ``status.py`` (``monchat sync status``), ``crypto.py`` (an encrypted
folder: every line sealed with a passphrase); decisions about memory as
events: ``hlc.py`` (the clock they are ordered by), ``decisions.py`` (a memory's state, export), ``replaying.py``
(reading and applying the others'). See ``docs/sync.md``.
"""
