"""The ``tapewatch/tapeGraph`` request: the tapes of a script's last run.

Params ``{"uri": str}``; result ``null`` before any completed run of that
script, else ``{"uri", "tapes": [TapeGraph], "findings": [Finding]}`` in
the JSON forms of ``tapewatch.model`` (lines 1-based, as in the model), and
``"restored": {"time", "readable_time", "path"}`` when the result is a kept
run shown again after a reload (a kept run holds no tapes).

Each launch node gets ``calls``: the chain of calls that made the launch as
places, innermost first (``[{"path", "line", "column", "function"}]``).  The
probe names them ``"simulate_step() at line 54"`` (``names``) without the
caller's file; the file is the first of the run's script, the launch's file,
the tape's file and the other files of the graph whose line ``54`` calls
``simulate_step(``.  A name that resolves nowhere ends the chain there.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional

from pygls.exceptions import JsonRpcInvalidParams

from .runs import RunsFeature
from .server import Feature, TapewatchServer

TAPE_GRAPH = "tapewatch/tapeGraph"


class TapeGraphFeature(Feature):
    name = "tape_graph"

    def tape_graph(self, params: Any) -> Optional[Dict[str, Any]]:
        uri = _param(params, "uri")
        if not isinstance(uri, str):
            raise JsonRpcInvalidParams("%s expects {\"uri\": string}" % TAPE_GRAPH)
        runs = self.server.get_feature(RunsFeature)
        last = runs.last_result(uri) if runs is not None else None
        if last is None:
            return None
        result = last["result"]
        out = {
            "uri": last["uri"],
            "tapes": [with_calls(t.to_json(), result.script) for t in result.tapes],
            "findings": [f.to_json() for f in result.findings],
        }
        if last.get("restored"):
            out["restored"] = last["restored"]
        return out


_CALL = re.compile(r"^(?P<function>[A-Za-z_][A-Za-z0-9_]*)\(\) at line (?P<line>[0-9]+)$")
MAX_SOURCE = 4 * 1024 * 1024


def with_calls(tape: Dict[str, Any], script: str) -> Dict[str, Any]:
    """``tape`` (JSON) with ``calls`` on each launch node (see the module's docstring)."""
    files: List[str] = [script]
    for place in [tape.get("location")] + [n.get("location") for n in tape.get("nodes", [])]:
        if isinstance(place, dict) and isinstance(place.get("path"), str) and place["path"] not in files:
            files.append(place["path"])
    lines: Dict[str, Optional[List[str]]] = {}
    memo: Dict[tuple, List[Dict[str, Any]]] = {}  # a loop's launches share their chain
    for node in tape.get("nodes", []):
        if node.get("kind") != "launch":
            continue
        own = (node.get("location") or {}).get("path")
        names = [n for n in node.get("names") or [] if isinstance(n, str)]
        key = (own, tuple(names))
        if key not in memo:
            order = [script] + ([own] if own else []) + files
            memo[key] = resolve_calls(names, list(dict.fromkeys(order)), lines)
        node["calls"] = [dict(c) for c in memo[key]]
    return tape


def resolve_calls(names: List[str], files: List[str], cache: Dict[str, Optional[List[str]]]) -> List[Dict[str, Any]]:
    calls: List[Dict[str, Any]] = []
    for name in names:
        m = _CALL.match(name) if isinstance(name, str) else None
        if m is None:
            break
        function, line = m.group("function"), int(m.group("line"))
        call = re.compile(r"\b%s\s*\(" % re.escape(function))
        place = None
        for path in files:
            text = _lines(path, cache)
            if text is not None and 1 <= line <= len(text):
                found = call.search(text[line - 1])
                if found:
                    place = {"path": path, "line": line, "column": found.start() + 1, "function": function}
                    break
        if place is None:
            break
        calls.append(place)
    return calls


def _lines(path: str, cache: Dict[str, Optional[List[str]]]) -> Optional[List[str]]:
    if path not in cache:
        cache[path] = None
        try:
            if os.path.isfile(path) and os.path.getsize(path) <= MAX_SOURCE:
                with open(path, encoding="utf-8", errors="replace") as f:
                    cache[path] = f.read().splitlines()
        except OSError:
            pass
    return cache[path]


def _param(params: Any, name: str) -> Any:
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


def setup(server: TapewatchServer) -> TapeGraphFeature:
    feature = server.add_feature(TapeGraphFeature(server))
    server.handle(feature.name, TAPE_GRAPH)(feature.tape_graph)
    return feature
