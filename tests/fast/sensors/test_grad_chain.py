"""The gradient chain (``probe/sensors/grad_chain.py``, ``GradChain``): TW201, an array allocated without
``requires_grad`` on a differentiable path of a tape, reported on its allocation."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def scale(x: wp.array(dtype=float), k: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * k[0]


@wp.kernel
def cull(x: wp.array(dtype=float), radius: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    if x[i] < radius[i]:
        y[i] = x[i] * x[i]


@wp.kernel
def total_sq(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()] * x[wp.tid()])


def _params():
    x = wp.array(np.linspace(0.5, 1.5, 8, dtype=np.float32), requires_grad=True)
    k = wp.array([2.0], dtype=float, requires_grad=True)
    return x, k, wp.zeros(8, dtype=float, requires_grad=True), wp.zeros(1, dtype=float, requires_grad=True)


def test_an_intermediate_without_requires_grad(probe):
    x, k, out, loss = _params()
    mid = wp.zeros(8, dtype=float)  # no requires_grad
    tape = wp.Tape()
    with tape:
        wp.launch(scale, dim=8, inputs=[x, k], outputs=[mid])
        wp.launch(scale, dim=8, inputs=[mid, k], outputs=[out])
        wp.launch(total_sq, dim=8, inputs=[out], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW201"))
    assert [f["line"] for f in found] == [_line_of("mid = wp.zeros(8, dtype=float)  # no requires_grad")], \
        probe.findings()
    assert found[0]["message"].startswith("`mid` is allocated without requires_grad=True, but `scale` computes it")
    assert "so `x`, `k` get no gradient through it" in found[0]["message"]
    assert not np.any(x.grad.numpy())  # what the finding says: no gradient through it


def test_an_intermediate_with_requires_grad_is_quiet(probe):
    x, k, out, loss = _params()
    mid = wp.zeros(8, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(scale, dim=8, inputs=[x, k], outputs=[mid])
        wp.launch(scale, dim=8, inputs=[mid, k], outputs=[out])
        wp.launch(total_sq, dim=8, inputs=[out], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []
    assert np.all(x.grad.numpy() != 0.0)


def test_an_array_only_compared_against_is_quiet(probe):
    x, k, out, loss = _params()
    radius = wp.zeros(8, dtype=float)
    tape = wp.Tape()
    with tape:
        wp.launch(scale, dim=8, inputs=[x, k], outputs=[radius])
        wp.launch(cull, dim=8, inputs=[x, radius], outputs=[out])
        wp.launch(total_sq, dim=8, inputs=[out], outputs=[loss])
    tape.backward(loss)
    assert probe.findings("TW201") == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
