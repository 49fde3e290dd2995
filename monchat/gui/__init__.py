"""The desktop app (all Qt lives here; ``monchat.core`` never imports Qt)."""
