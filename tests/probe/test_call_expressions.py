"""``call_expressions.call_at``: the call a frame executes, with its caches bounded."""

from __future__ import annotations

import ast
import sys

import pytest

from tapewatch.probe.core import call_expressions
from tapewatch.probe.core.sites import FrameSnap, def_location


def here():
    return FrameSnap(sys._getframe(1))


def snaps():
    """Five distinct call sites, each asking where it is."""
    return [here(), here(), here(), here(), here()]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exact spans need co_positions")
def test_calls_are_found_again_after_the_caches_start_afresh(monkeypatch):
    monkeypatch.setattr(call_expressions, "MAX_KEPT_CALLS", 2)
    first = [call_expressions.call_at(s) for s in snaps()]
    assert all(isinstance(c, ast.Call) and call_expressions.callee_name(c) == "here" for c in first)
    assert len(call_expressions._segments) <= 2 and len(call_expressions._resolved) <= 2
    again = [call_expressions.call_at(s) for s in snaps()]  # evicted sites are parsed again, to the same spans
    spans = [(c.lineno, c.col_offset, c.end_lineno, c.end_col_offset) for c in first]
    assert [(c.lineno, c.col_offset, c.end_lineno, c.end_col_offset) for c in again] == spans
    assert len(set(spans)) == 5


def test_a_def_location_is_the_functions_own_even_for_equal_code_in_another_file(tmp_path):
    source = "def f():\n    return 1\n"
    functions = []
    for name in ("one.py", "two.py"):
        path = tmp_path / name
        path.write_text(source)
        namespace = {}
        exec(compile(source, str(path), "exec"), namespace)
        functions.append(namespace["f"])
    assert functions[0].__code__ == functions[1].__code__  # equal code objects...
    paths = [def_location(f).path for f in functions]  # ...yet each keeps its own file
    assert paths == [str(tmp_path / "one.py"), str(tmp_path / "two.py")]
    assert [def_location(f).path for f in functions] == paths  # and again, from the cache
