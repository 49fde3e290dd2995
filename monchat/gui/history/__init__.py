"""The File menu: search, import, export, backup and restore."""
