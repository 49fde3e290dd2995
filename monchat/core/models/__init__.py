"""Embedded models: the catalog (``catalog.json``), downloads, and which one this machine runs well."""
