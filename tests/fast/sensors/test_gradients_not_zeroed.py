"""Gradients not zeroed (``probe/sensors/gradients_not_zeroed.py``, ``GradientsNotZeroed``): TW202, a
parameter whose ``.grad`` still holds the previous ``backward()``'s sum although an optimizer step changed
the parameter in between."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def residual(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


def _problem():
    return wp.zeros(8, dtype=float, requires_grad=True), wp.array(np.linspace(0.0, 1.0, 8, dtype=np.float32))


def test_one_tape_never_zeroed(probe):
    x, target = _problem()
    tape = wp.Tape()
    for _ in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(residual, dim=8, inputs=[x, target], outputs=[loss])
        tape.backward(loss)  # sums onto the last gradient
        wp.launch(sgd, dim=8, inputs=[x, x.grad, 0.1])
    found = _final(probe.findings("TW202"))
    warnings = [f for f in found if f["severity"] == "warning"]
    assert [f["line"] for f in warnings] == [_line_of("# sums onto the last gradient")], probe.findings()
    assert warnings[0]["message"].startswith("`x.grad` still holds the previous backward's gradient, but `x` changed")
    # and, as information, the tape recorded into again without reset()
    assert [f["severity"] for f in found] == ["information", "warning"]
    assert "recorded into again (`with tape:`) without `tape.reset()`" in found[0]["message"]


def test_a_fresh_tape_per_iteration_zeroes_nothing(probe):
    x, target = _problem()
    for _ in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()  # a new tape zeroes nothing
        with tape:
            wp.launch(residual, dim=8, inputs=[x, target], outputs=[loss])
        tape.backward(loss)
        wp.launch(sgd, dim=8, inputs=[x, x.grad, 0.1])
    found = _final(probe.findings("TW202"))
    assert [f["line"] for f in found] == [_line_of("# a new tape zeroes nothing")], probe.findings()
    assert found[0]["message"].startswith("This replaces `tape` with a fresh tape every step")


def test_zeroed_after_each_update_is_quiet(probe):
    x, target = _problem()
    for _ in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(residual, dim=8, inputs=[x, target], outputs=[loss])
        tape.backward(loss)
        wp.launch(sgd, dim=8, inputs=[x, x.grad, 0.1])
        tape.zero()
    assert probe.findings() == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
