"""Small shared pieces: workers, a never-blocking confirm, object lifetime; scroll pages that fit a laptop screen,
colours checked for contrast, notices, ids made from names."""
