"""The overwrite engine (``probe/sensors/overwrites.py``, ``Overwrites``): TW101 (a taped launch overwrites
an array an earlier launch on the tape read), TW102 (a taped ``wp.copy``/``assign`` does), TW103 (a taped
``zero_()``/``fill_()`` does), TW104 (a kernel writes an argument after reading it), TW105 (one array passed
to a read and a written parameter of one launch), TW106 (a write between recording and ``backward()``) and
TW107 (Warp's own warning about a read on another tape, kept as information)."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])


@wp.kernel
def square_in_place(x: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i] * x[i]
    x[i] = v  # the write after the read


def _arrays(n=3):
    a = wp.array(np.linspace(0.5, 1.5, 8, dtype=np.float32), requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    return [a] + [wp.zeros(8, dtype=float, requires_grad=True) for _ in range(n - 1)] + [loss]


def test_a_launch_overwriting_a_read_array(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.launch(square, dim=8, inputs=[c], outputs=[a])  # overwrites a
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW101"))
    assert [f["line"] for f in found] == [_line_of("outputs=[a])  # overwrites a")], probe.findings()
    assert "`a` (argument `y` of `square`) is overwritten by this launch" in found[0]["message"]
    assert "Measured before backward()" in found[0]["message"] and found[0]["severity"] == "warning"


def test_a_ping_pong_into_fresh_arrays_is_quiet(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.launch(square, dim=8, inputs=[b], outputs=[c])
        wp.launch(total, dim=8, inputs=[c], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []


def test_a_taped_copy_overwriting_a_read_array(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.copy(a, c)  # copy over a
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW102"))
    assert [f["line"] for f in found] == [_line_of("wp.copy(a, c)  # copy over a")], probe.findings()
    assert found[0]["message"].startswith("`wp.copy` overwrites `a`")


def test_a_taped_copy_into_an_unread_array_is_quiet(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.copy(c, b)
        wp.launch(total, dim=8, inputs=[c], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []


def test_a_taped_zero_fill_of_a_read_array(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        a.zero_()  # zeroes a
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW103"))
    assert [f["line"] for f in found] == [_line_of("a.zero_()  # zeroes a")], probe.findings()
    assert found[0]["message"].startswith("`a.zero_()` overwrites `a`")


def test_a_zero_fill_before_the_read_is_quiet(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        c.zero_()
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []


def test_a_kernel_writing_what_it_read(probe):
    a, _, _, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square_in_place, dim=8, inputs=[a])
        wp.launch(total, dim=8, inputs=[a], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW104"))
    assert [f["line"] for f in found] == [_line_of("x[i] = v  # the write after the read")], probe.findings()
    assert "kernel `square_in_place` writes `x` after reading it (line %d)" % _line_of("v = x[i] * x[i]") \
        in found[0]["message"]


def test_an_aliased_launch(probe):
    a, _, _, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[a])  # aliased
        wp.launch(total, dim=8, inputs=[a], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW105"))
    assert [f["line"] for f in found] == [_line_of("outputs=[a])  # aliased")], probe.findings()
    assert "`a` is passed to `square` as `x`, which it reads, and as `y`, which it writes" in found[0]["message"]


def test_a_write_between_recording_and_backward(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    wp.launch(square, dim=8, inputs=[c], outputs=[a])  # untaped write
    tape.backward(loss)
    found = _final(probe.findings("TW106"))
    assert [f["line"] for f in found] == [_line_of("outputs=[a])  # untaped write")], probe.findings()
    assert "launched outside the tape, writes `a` after the tape recorded it" in found[0]["message"]


def test_a_write_after_backward_is_quiet(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
        wp.launch(total, dim=8, inputs=[b], outputs=[loss])
    tape.backward(loss)
    wp.launch(square, dim=8, inputs=[c], outputs=[a])
    a.zero_()
    assert probe.findings() == []


def test_a_write_before_a_tape_never_differentiated_is_quiet(probe):
    a, b, c, loss = _arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
    wp.launch(square, dim=8, inputs=[c], outputs=[a])
    tape.reset()
    assert probe.findings("TW106") == []


def test_warps_warning_about_a_read_on_another_tape(probe):
    a, b, c, _ = _arrays()
    with wp.Tape():
        wp.launch(square, dim=8, inputs=[a], outputs=[b])
    with wp.Tape():
        wp.launch(square, dim=8, inputs=[c], outputs=[a])  # another tape's read
    found = _final(probe.findings("TW107"))
    assert [f["line"] for f in found] == [_line_of("outputs=[a])  # another tape's read")], probe.findings()
    assert found[0]["severity"] == "information" and "that read was on another tape" in found[0]["message"]
    assert probe.findings("TW101") == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured at backward() is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
