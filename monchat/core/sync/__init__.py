"""One history on every device through a synced folder (issue 41): per-device journals, deletions that travel.

``service.py`` (SyncService: setup, run), ``journal.py`` (this device's files: export, deletions), ``folder.py``
(the layout, conflict copies, whole lines), ``status.py`` (``monchat sync status``), ``crypto.py`` (an encrypted
folder: every line sealed with a passphrase). See ``docs/sync.md``.
"""
