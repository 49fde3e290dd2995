"""Persona editors and avatars."""
