"""Asking a model for a structured answer: one call, requests that fit, answers already paid for."""
