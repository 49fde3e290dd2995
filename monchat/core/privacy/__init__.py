"""Where your words go: cloud consent, API keys. Redaction, which every error names, is below the errors:
``core/redact.py``."""
