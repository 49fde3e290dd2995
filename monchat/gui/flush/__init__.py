"""The flush dialog and its finished rows."""
