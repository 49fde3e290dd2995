"""The conversation as written: 6-hour log files, their index, history, search, taking words back."""
