"""SQLite storage: all SQL of monchat lives in this package."""

from .db import Store

__all__ = ["Store"]
