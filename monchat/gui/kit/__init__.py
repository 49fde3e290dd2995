"""Small shared pieces: workers, a never-blocking confirm, object lifetime."""
