"""Where your words go: cloud consent, API keys, redaction."""
