"""NumPy writes (``probe/sensors/numpy_writes.py``, ``NumpyViews``): TW106 for a write the tape never sees,
through a CPU array's ``.numpy()`` view or the NumPy buffer of a ``copy=False`` array, made between
recording and ``backward()`` (found by a checksum taken when the view is handed out)."""

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


def _record(x):
    y = wp.zeros(8, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=8, inputs=[x], outputs=[y])
        wp.launch(total, dim=8, inputs=[y], outputs=[loss])
    return tape, loss


def _x():
    return wp.array(np.linspace(0.5, 1.5, 8, dtype=np.float32), requires_grad=True)


def test_a_write_through_a_numpy_view_before_backward(probe):
    x = _x()
    tape, loss = _record(x)
    frame = x.numpy()
    frame *= 2.0  # through the view
    tape.backward(loss)
    found = _final(probe.findings("TW106"))
    assert [f["line"] for f in found] == [_line_of("frame *= 2.0  # through the view")], probe.findings()
    assert found[0]["message"].startswith("`x` is written through its NumPy view `frame`")
    # the adjoint replayed against the doubled values: 2 * (2 x) instead of 2 x
    assert x.grad.numpy() == pytest.approx(4.0 * x.numpy() / 2.0, rel=1e-5)


def test_a_write_through_a_view_after_backward_is_quiet(probe):
    x = _x()
    tape, loss = _record(x)
    tape.backward(loss)
    frame = x.numpy()
    frame *= 2.0
    assert probe.findings() == []


def test_a_view_only_read_and_a_written_copy_are_quiet(probe):
    x = _x()
    tape, loss = _record(x)
    peak = float(x.numpy().max())
    frame = x.numpy().copy()
    frame *= 2.0
    tape.backward(loss)
    assert probe.findings() == []
    assert peak == 1.5


def test_a_write_to_the_buffer_of_a_copy_false_array(probe):
    buffer = np.linspace(0.5, 1.5, 8, dtype=np.float32)
    x = wp.array(buffer, dtype=float, copy=False)  # shares the buffer
    tape, loss = _record(x)
    buffer += 1.0  # the buffer written
    tape.backward(loss)
    found = _final(probe.findings("TW106"))
    assert [f["line"] for f in found] == [_line_of("buffer += 1.0  # the buffer written")], probe.findings()
    assert found[0]["message"].startswith("`buffer` is written in place here after the tape recorded `x`")


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
