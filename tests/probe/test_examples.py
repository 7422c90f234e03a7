"""Each bundled example gives exactly its findings, at exactly its lines,
under the newest and the oldest supported Warp."""

from __future__ import annotations

import asyncio


from conftest import EXAMPLES, line_of, markers
from tapewatch.runner import RunRequest, run_probe


def run(example: str, python: str, **kw):
    return asyncio.run(run_probe(RunRequest(script=str(EXAMPLES / example), python=python, **kw)))


def related(finding, role):
    return [(r.location.path, r.location.line) for r in finding.related if r.role == role]


def test_pingpong_helper(python):
    path = EXAMPLES / "pingpong_helper.py"
    m = markers(path)
    result = run("pingpong_helper.py", python)
    assert result.exit_code == 0 and result.outcome == "ok"
    assert sorted((f.code, f.location.line) for f in result.findings) == [("TW101", m["expect:TW101"][0])] * 2
    by_array = {f.data["array"]: f for f in result.findings}
    assert set(by_array) == {"a.q", "b.q"}
    # 3 round trips of a->b, b->a: a.q is overwritten 3 times, b.q twice.
    assert (by_array["a.q"].count, by_array["b.q"].count) == (3, 2)
    a_to_b, b_to_a = m["caller"]
    f = by_array["a.q"]
    assert f.location.path == str(path)
    assert related(f, "caller") == [(str(path), b_to_a)]  # written by step(b, v, a)
    assert related(f, "reader") == [(str(path), m["expect:TW101"][0])]
    assert related(f, "reader-caller") == [(str(path), a_to_b)]  # read by step(a, v, b)
    assert related(f, "kernel")[0][1] == line_of(path, "def integrate")
    assert related(f, "allocation") == [(str(path), line_of(path, "self.q = wp.array"))]
    assert related(f, "allocation-caller") == [(str(path), m["alloc"][0])]  # a = State(start)
    assert f.data["argument"] == "x_out" and f.data["reader_argument"] == "x"
    assert f.data["warp_reported"] is False  # Warp misses x in `x[i] + v[i] * dt`
    assert "Warp's tracker did not report this" in f.message


def test_copy_overwrite(python):
    path = EXAMPLES / "copy_overwrite.py"
    m = markers(path)
    result = run("copy_overwrite.py", python)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW102", m["expect:TW102"][0])]
    f = result.findings[0]
    assert f.data["array"] == "x_prev" and f.data["operation"] == "wp.copy"
    assert related(f, "reader") == [(str(path), m["reader"][0])]
    assert related(f, "allocation") == [(str(path), m["alloc"][0])]
    assert related(f, "reader-kernel")[0][1] == line_of(path, "def damp")


def test_zero_read_array(python):
    path = EXAMPLES / "zero_read_array.py"
    m = markers(path)
    result = run("zero_read_array.py", python)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW103", m["expect:TW103"][0])]
    f = result.findings[0]
    assert f.data["array"] == "forces" and f.data["reader_kernel"] == "step"
    assert related(f, "reader") == [(str(path), m["reader"][0])]
    assert related(f, "allocation") == [(str(path), m["alloc"][0])]


def test_intra_kernel(python):
    path = EXAMPLES / "intra_kernel.py"
    m = markers(path)
    result = run("intra_kernel.py", python)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW104", m["expect:TW104"][0])]
    f = result.findings[0]
    measured = f.data.pop("measured")
    assert f.data == {"kernel": "squash", "argument": "x", "warp_reported": f.data["warp_reported"]}
    # The launch check's failure is this statement's measurement (no TW404 on the kernel besides it).
    assert (measured["input"], measured["output"]) == ("scale", "x")
    assert abs(measured["ad"] - measured["fd"]) > 0.01 * abs(measured["fd"])
    assert "Measured at its launch" in f.message
    assert related(f, "read") == [(str(path), m["expect:TW104"][0] - 1)]
    assert related(f, "compiled-by") == [(str(path), m["compiled-by"][0])]


def test_rebinding_alias(python):
    path = EXAMPLES / "rebinding_alias.py"
    m = markers(path)
    result = run("rebinding_alias.py", python)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW101", m["expect:TW101"][0])]
    f = result.findings[0]
    assert f.data["array"] == "states[f + 1]"
    assert "`states[f]`" in [r for r in f.related if r.role == "reader"][0].message
    assert related(f, "allocation") == [(str(path), m["alloc"][0])]


def test_correct_program_is_clean(python):
    result = run("correct_fresh_arrays.py", python)
    assert result.findings == []
    assert result.exit_code == 0
    # ...and it really did differentiate: three tapes with the same structure, captured once.
    assert len(result.tapes) == 1 and result.tapes[0].captured_at == "backward"
