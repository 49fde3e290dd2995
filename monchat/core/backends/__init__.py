"""LLM backends: one small abstract class, a thin adapter per service."""
