"""The one data model shared by probe, runner, CLI, language server and tests.

Stdlib only and Python 3.9 compatible: the probe imports this module inside
the user's interpreter.  Every type round-trips through plain JSON
(``to_json``/``from_json``) because findings cross a process boundary.

Lines are 1-based; columns are 1-based UTF-8 byte offsets (what ``ast`` and
``co_positions`` give, compiler style) and ``end_column`` is exclusive.  The
language server converts to LSP's 0-based positions in the client's
encoding at its edge, with the text of the line.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

SEVERITIES = ("error", "warning", "information", "hint")

# Slotted where Python allows it (3.10+): a run holds thousands of findings, locations and graph
# nodes, and an instance dict is one more object for every collection of the collector to walk.
_SLOTS: Dict[str, Any] = {"slots": True} if sys.version_info >= (3, 10) else {}


@dataclass(**_SLOTS)
class Location:
    path: str
    line: int
    column: int = 1
    end_line: Optional[int] = None
    end_column: Optional[int] = None

    def to_json(self) -> Dict[str, Any]:
        # Spelled out: dataclasses.asdict deep-copies, and a run can emit thousands of these.
        return {"path": self.path, "line": self.line, "column": self.column,
                "end_line": self.end_line, "end_column": self.end_column}

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Location":
        """From JSON that crossed a process boundary (or a file): positions forced into range, lines and
        columns at least 1 and at most ``MAX_POSITION``, an end before its start dropped."""
        line = _position(obj["line"])
        column = _position(obj.get("column") or 1)
        end_line = _opt_int(obj.get("end_line"))
        end_column = _opt_int(obj.get("end_column"))
        if end_line is not None and not line <= end_line <= MAX_POSITION:
            end_line = end_column = None
        if end_column is not None and (not 1 <= end_column <= MAX_POSITION
                                       or ((end_line is None or end_line == line) and end_column < column)):
            end_column = None
        return cls(path=str(obj["path"]), line=line, column=column, end_line=end_line, end_column=end_column)

    def __str__(self) -> str:
        return "%s:%d:%d" % (self.path, self.line, self.column)


@dataclass(**_SLOTS)
class Related:
    """A secondary location: the earlier reader, the kernel, the allocation."""

    location: Location
    message: str
    role: str = ""  # "reader", "kernel", "allocation", "caller", "compiled-by", ...

    def to_json(self) -> Dict[str, Any]:
        out = self.location.to_json()
        out["message"] = self.message
        out["role"] = self.role
        return out

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Related":
        return cls(Location.from_json(obj), str(obj.get("message", "")), str(obj.get("role", "")))


@dataclass(**_SLOTS)
class Finding:
    code: str
    message: str
    location: Optional[Location]
    severity: str = "warning"
    related: List[Related] = field(default_factory=list)
    count: int = 1
    id: str = ""
    # What code actions, the tape graph and reports need beyond the message:
    # array and argument names, kernel, whether Warp itself reported it...
    data: Dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> Dict[str, Any]:
        loc = self.location
        return {
            "id": self.id,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": loc.path if loc else None,
            "line": loc.line if loc else None,
            "column": loc.column if loc else None,
            "end_line": loc.end_line if loc else None,
            "end_column": loc.end_column if loc else None,
            "related": [r.to_json() for r in self.related],
            "count": self.count,
            "data": self.data,
        }

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Finding":
        loc = None
        if obj.get("path") is not None and obj.get("line") is not None:
            loc = Location.from_json(obj)
        severity = obj.get("severity", "warning")
        if severity not in SEVERITIES:
            severity = "warning"
        return cls(
            code=str(obj["code"]),
            message=str(obj["message"]),
            location=loc,
            severity=severity,
            related=[Related.from_json(r) for r in obj.get("related", [])],
            count=int(obj.get("count", 1)),
            id=str(obj.get("id", "")),
            data=dict(obj.get("data") or {}),
        )


@dataclass(**_SLOTS)
class GraphNode:
    id: str
    kind: str  # "launch", "array", "func" (recorded function such as a copy)
    label: str
    location: Optional[Location] = None
    requires_grad: Optional[bool] = None
    names: List[str] = field(default_factory=list)  # the user's expressions for an array
    shape: Optional[List[int]] = None
    dtype: str = ""
    finding_ids: List[str] = field(default_factory=list)

    def to_json(self) -> Dict[str, Any]:
        # Spelled out, as ``Location.to_json``: a long rollout's graph has thousands of nodes.
        return {"id": self.id, "kind": self.kind, "label": self.label,
                "location": self.location.to_json() if self.location else None,
                "requires_grad": self.requires_grad, "names": list(self.names),
                "shape": list(self.shape) if self.shape is not None else None, "dtype": self.dtype,
                "finding_ids": list(self.finding_ids)}

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "GraphNode":
        loc = obj.get("location")
        return cls(
            id=str(obj["id"]),
            kind=str(obj["kind"]),
            label=str(obj.get("label", "")),
            location=Location.from_json(loc) if loc else None,
            requires_grad=obj.get("requires_grad"),
            names=list(obj.get("names") or []),
            shape=obj.get("shape"),
            dtype=str(obj.get("dtype", "")),
            finding_ids=list(obj.get("finding_ids") or []),
        )


@dataclass(**_SLOTS)
class GraphEdge:
    source: str
    target: str
    kind: str  # "read" (array -> launch) or "write" (launch -> array)
    arg: str = ""

    def to_json(self) -> Dict[str, Any]:
        return {"source": self.source, "target": self.target, "kind": self.kind, "arg": self.arg}

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "GraphEdge":
        return cls(str(obj["source"]), str(obj["target"]), str(obj["kind"]), str(obj.get("arg", "")))


@dataclass(**_SLOTS)
class TapeGraph:
    id: str
    label: str
    captured_at: str  # "backward" or "exit"
    location: Optional[Location] = None  # where the tape was created
    nodes: List[GraphNode] = field(default_factory=list)
    edges: List[GraphEdge] = field(default_factory=list)
    repeats: int = 1  # how many tapes recorded these launches (drawn once: a tape per window or iteration)

    def to_json(self) -> Dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "captured_at": self.captured_at,
            "location": self.location.to_json() if self.location else None,
            "nodes": [n.to_json() for n in self.nodes],
            "edges": [e.to_json() for e in self.edges],
            "repeats": self.repeats,
        }

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "TapeGraph":
        loc = obj.get("location")
        return cls(
            id=str(obj["id"]),
            label=str(obj.get("label", "")),
            captured_at=str(obj.get("captured_at", "")),
            location=Location.from_json(loc) if loc else None,
            nodes=[GraphNode.from_json(n) for n in obj.get("nodes", [])],
            edges=[GraphEdge.from_json(e) for e in obj.get("edges", [])],
            repeats=max(1, int(obj.get("repeats", 1) or 1)),
        )


MAX_POSITION = 2 ** 31 - 1  # what every consumer takes (LSP positions are unsigned 32-bit)


def _position(value: Any) -> int:
    return min(max(1, int(value)), MAX_POSITION)


def _opt_int(value: Any) -> Optional[int]:
    return None if value is None else int(value)
