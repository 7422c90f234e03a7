"""Gradient reads (``probe/sensors/grad_reads.py``, ``GradReads``): TW205, a ``.grad`` read before the
``backward()`` that fills it, or after a ``tape.zero()`` that cleared it."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def fit(w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = w[i] - 1.0
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def sgd(w: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    w[i] = w[i] - lr * g[i]


def test_an_update_before_backward(probe):
    w = wp.zeros(8, dtype=float, requires_grad=True)
    for _ in range(2):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(fit, dim=8, inputs=[w], outputs=[loss])
        wp.launch(sgd, dim=8, inputs=[w, w.grad, 0.1])  # steps before backward
        tape.backward(loss)  # fills it
        tape.zero()
    found = _final(probe.findings("TW205"))
    assert [f["line"] for f in found] == [_line_of("# steps before backward")], probe.findings()
    assert found[0]["message"].startswith("`w.grad` is read here (a launch of `sgd`) after the tape started")
    assert "before its backward() (line %d)" % _line_of("# fills it") in found[0]["message"]


def test_an_update_after_backward_is_quiet(probe):
    w = wp.zeros(8, dtype=float, requires_grad=True)
    for _ in range(2):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(fit, dim=8, inputs=[w], outputs=[loss])
        tape.backward(loss)
        wp.launch(sgd, dim=8, inputs=[w, w.grad, 0.1])
        tape.zero()
    assert probe.findings() == []
    assert w.numpy() == pytest.approx(np.full(8, 0.36), rel=1e-5)


def test_a_gradient_read_after_zero(probe):
    w = wp.zeros(8, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fit, dim=8, inputs=[w], outputs=[loss])
    tape.backward(loss)
    tape.zero()  # clears before the read
    g = w.grad.numpy().copy()  # zeros
    found = _final(probe.findings("TW205"))
    assert [f["line"] for f in found] == [_line_of("tape.zero()  # clears before the read")], probe.findings()
    assert "the read at line %d (`.numpy()`) gets zeros" % _line_of("g = w.grad.numpy().copy()  # zeros") \
        in found[0]["message"]
    assert not np.any(g)


def test_a_gradient_read_before_zero_is_quiet(probe):
    w = wp.zeros(8, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fit, dim=8, inputs=[w], outputs=[loss])
    tape.backward(loss)
    g = w.grad.numpy().copy()
    tape.zero()
    assert probe.findings() == []
    assert g == pytest.approx(np.full(8, -2.0))


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
