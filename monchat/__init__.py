"""monchat: a local-first chat app whose companion remembers what changed, from evidence."""

__version__ = "0.1.0"
