"""JSON laid out for people and written at the speed of the C encoder.

``json.dumps(obj, indent=2)`` takes the pure-Python encoder (the C one has
no indentation): for a run with thousands of findings it was most of the
report's time.  Here containers down to ``depth`` get one member per line
and everything below is one compact line per item (a finding per line),
which reads as well and diffs better.
"""

from __future__ import annotations

import json
from typing import Any


def dumps(obj: Any, depth: int = 2, _indent: str = "") -> str:
    if depth <= 0 or not isinstance(obj, (dict, list)) or not obj:
        return json.dumps(obj)
    inner = _indent + "  "
    if isinstance(obj, dict):
        items = ["%s%s: %s" % (inner, json.dumps(str(k)), dumps(v, depth - 1, inner))
                 for k, v in obj.items()]
        return "{\n%s\n%s}" % (",\n".join(items), _indent)
    return "[\n%s\n%s]" % (",\n".join(inner + dumps(v, depth - 1, inner) for v in obj), _indent)
