"""Tape graphs: what each tape recorded, captured at ``backward()`` and at exit.

The JSON graph (launch nodes with call sites, array nodes with
``requires_grad``, the user's names, finding ids) is built from the
launches the tracker saw.  It is data only: each client draws it its own
way (the VS Code webview with Graphviz, the Neovim and Emacs commands as a
text outline), so no drawing language, and no quoting of the user's names
into one, lives here.

A training loop may differentiate thousands of tapes; tapes with the same
structure (same kernels at the same lines) are captured once, and how many
there were is told at exit (``tape_repeats``), so a client can say so.
"""

from __future__ import annotations

import os
from typing import Dict, List

from ...model import GraphEdge, GraphNode, TapeGraph
from . import facts, warp_seams
from .related import alloc_site
from .tracker import Tracker

MAX_TAPES = 16
MAX_LAUNCHES = 400


class GraphCapture:
    def __init__(self, wp, tracker: Tracker, emit):
        self.wp = wp
        self.tracker = tracker
        self.emit = emit
        self.signatures: Dict[tuple, str] = {}
        self.repeats: Dict[str, int] = {}  # graph id -> tapes with its structure (the drawn one included)
        self.skipped = 0

    def on_backward(self, tape) -> None:
        self._capture(tape, "backward")
        self.tracker.differentiated(tape)

    def at_exit(self) -> None:
        for tape in self.tracker.pending_tapes():
            state = facts.tape_state(tape)
            if state is not None and not state.captured and state.launches:
                self._capture(tape, "exit")
        if self.skipped:
            self.emit("tapes_skipped", count=self.skipped)
        repeated = {graph_id: n for graph_id, n in self.repeats.items() if n > 1}
        if repeated:
            self.emit("tape_repeats", counts=repeated)

    def _capture(self, tape, when: str) -> None:
        state = self.tracker.tape_state(tape)
        if not state.launches:
            return
        signature = tuple((r.kernel_name, r.site.key()) for r in state.launches[:MAX_LAUNCHES])
        state.captured = True
        if signature in self.signatures or len(self.signatures) >= MAX_TAPES:
            self.skipped += 1
            drawn = self.signatures.get(signature)
            if drawn is not None:
                self.repeats[drawn] = self.repeats.get(drawn, 1) + 1
            return
        graph = build_graph(self.wp, self.tracker, state, when)
        self.signatures[signature] = graph.id
        self.emit("tape", tape=graph.to_json())


def build_graph(wp, tracker: Tracker, state, when: str) -> TapeGraph:
    registry = tracker.registry

    nodes: List[GraphNode] = []
    edges: List[GraphEdge] = []
    array_nodes: Dict[int, GraphNode] = {}

    def array_node(arr, name) -> GraphNode:
        node = array_nodes.get(id(arr))
        if node is None:
            node = GraphNode(
                id="a%d" % (len(array_nodes) + 1),
                kind="array",
                label=name,
                requires_grad=bool(getattr(arr, "requires_grad", False)),
                shape=[int(s) for s in getattr(arr, "shape", ())],
                dtype=_dtype_name(wp, arr),
                finding_ids=registry.for_array(arr),
            )
            site = alloc_site(arr)
            node.location = site.location() if site is not None else None
            array_nodes[id(arr)] = node
            nodes.append(node)
        if name not in node.names:
            node.names.append(name)
        return node

    for record in state.launches[:MAX_LAUNCHES]:
        launch = GraphNode(
            id="l%d" % record.index,
            kind="launch",
            label=record.kernel_name,
            location=record.location(),
            # For a launch, ``names`` is the chain of calls that led to it:
            # six launches from one helper line differ by their callers.
            names=["%s() at line %d" % (inner.f_code.co_name, outer.f_lineno)
                   for outer, inner in zip(record.site.snaps[1:], record.site.snaps)],
            finding_ids=registry.for_launch(record.index),
        )
        nodes.append(launch)
        for access in record.accesses:
            label = record.access_label(access)
            name = registry.attempt("naming a graph node", lambda: record.access_name(access)) or label
            node = array_node(access.array, name)
            if access.read:
                edges.append(GraphEdge(node.id, launch.id, "read", label))
            if access.write:
                edges.append(GraphEdge(launch.id, node.id, "write", label))

    site = state.site.location(("Tape",)) if state.site.snaps else None
    label = "tape %d" % state.number
    if site is not None:
        label += " at %s:%d" % (os.path.basename(site.path), site.line)
    return TapeGraph(id="t%d" % state.number, label=label, captured_at=when, location=site,
                     nodes=nodes, edges=edges)


def _dtype_name(wp, arr) -> str:
    dtype = getattr(arr, "dtype", None)
    if dtype is None:
        return ""
    try:
        return warp_seams.type_repr(wp, dtype)
    except Exception:
        return getattr(dtype, "__name__", str(dtype))

