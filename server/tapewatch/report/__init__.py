"""Presenting a ``RunResult``: compiler-style text, JSON, SARIF 2.1.0.

Loaded lazily (PEP 562): ``report.escape`` is used before the runner (and
asyncio) may load, and importing it must not pull them in.
"""

from typing import Any

__all__ = ["to_json", "to_sarif", "to_text"]


def __getattr__(name: str) -> Any:
    if name == "to_json":
        from .json_report import to_json  # noqa: PLC0415

        return to_json
    if name == "to_sarif":
        from .sarif import to_sarif  # noqa: PLC0415

        return to_sarif
    if name == "to_text":
        from .text import to_text  # noqa: PLC0415

        return to_text
    raise AttributeError(name)
