"""Shared simulation settings."""
SUBSTEPS = 24
