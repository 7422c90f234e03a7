"""Fixed point (``probe/sensors/fixed_point.py``, ``FixedPoint``): TW208 (information), an iteration on a
tape (the same kernel, each launch reading what the last one wrote) stopped while its iterates were still
moving, reported on the loop that repeats it."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def relax(x: wp.array(dtype=float), source: wp.array(dtype=float), rate: float, x_next: wp.array(dtype=float)):
    i = wp.tid()
    x_next[i] = rate * x[i] + source[i]


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])


def _solve(rate: float, sweeps: int):
    source = wp.array(np.linspace(1.0, 2.0, 8, dtype=np.float32), requires_grad=True)
    fields = [wp.zeros(8, dtype=float, requires_grad=True) for _ in range(sweeps + 1)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(sweeps):  # the sweeps
            wp.launch(relax, dim=8, inputs=[fields[s], source, rate], outputs=[fields[s + 1]])
        wp.launch(total, dim=8, inputs=[fields[-1]], outputs=[loss])
    tape.backward(loss)
    return source


def test_a_solve_stopped_while_still_moving(probe):
    source = _solve(0.8, 8)
    found = _final(probe.findings("TW208"))
    assert [f["line"] for f in found] == [_line_of("for s in range(sweeps):  # the sweeps")], probe.findings()
    assert found[0]["severity"] == "information"
    assert found[0]["message"].startswith("`relax` was applied 8 times in a row on this tape")
    assert "each step shrinks the change by about 0.80" in found[0]["message"]
    # the truncated map's gradient, (1 - 0.8^8) / 0.2, not the equilibrium's 1 / 0.2
    assert source.grad.numpy()[0] == pytest.approx((1 - 0.8 ** 8) / 0.2, rel=1e-4)


def test_a_converged_solve_is_quiet(probe):
    _solve(0.2, 8)
    assert probe.findings() == []


def test_too_few_sweeps_are_quiet(probe):
    _solve(0.8, 4)
    assert probe.findings() == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
