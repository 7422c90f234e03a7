"""The ``tapewatch/tapeGraph`` request: the tapes of a script's last run.

Params ``{"uri": str}``; result ``null`` before any completed run of that
script, else ``{"uri", "tapes": [TapeGraph], "findings": [Finding]}`` in
the JSON forms of ``tapewatch.model`` (lines 1-based, as in the model).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

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
        return {
            "uri": last["uri"],
            "tapes": [t.to_json() for t in result.tapes],
            "findings": [f.to_json() for f in result.findings],
        }


def _param(params: Any, name: str) -> Any:
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


def setup(server: TapewatchServer) -> TapeGraphFeature:
    feature = server.add_feature(TapeGraphFeature(server))
    server.handle(feature.name, TAPE_GRAPH)(feature.tape_graph)
    return feature
