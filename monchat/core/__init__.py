"""Everything that is not Qt: logs, store, backends, services. Never imports PySide6."""
