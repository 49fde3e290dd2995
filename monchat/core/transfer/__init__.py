"""Bringing history in and out: imports, exports, backup and restore."""
