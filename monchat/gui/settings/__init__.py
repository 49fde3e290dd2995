"""Settings and the model tools."""
