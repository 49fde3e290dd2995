"""``monchat eval`` (issue 42): a memory score by program, on a set of dated sessions (docs/eval.md)."""
