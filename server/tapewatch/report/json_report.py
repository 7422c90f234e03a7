"""One JSON object per run: the summary fields plus findings and tapes."""

from __future__ import annotations

from ..runner import RunResult
from ..json_layout import dumps


def to_json(result: RunResult, include_tapes: bool = False) -> str:
    obj = result.summary()
    obj["python"] = result.python
    obj["features"] = result.features
    obj["findings"] = [f.to_json() for f in result.findings]
    if include_tapes:
        obj["tapes"] = [t.to_json() for t in result.tapes]
    return dumps(obj)  # a finding per line
