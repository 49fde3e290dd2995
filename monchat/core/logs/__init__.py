"""The conversation as written: 6-hour log files, their index, history, search, the off-record files.

Taking words back (Delete message) is a memory operation: ``core/memory/takeback.py``."""
