"""Presenting a ``RunResult``: compiler-style text, JSON, SARIF 2.1.0."""

from .json_report import to_json
from .sarif import to_sarif
from .text import to_text

__all__ = ["to_json", "to_sarif", "to_text"]
