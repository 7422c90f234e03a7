"""Stale accumulators (``probe/sensors/stale_accumulators.py``, ``StaleAccumulators``): TW209, a taped launch
accumulating into an array that still holds what the same launch line accumulated in the previous
iteration (a warning when a later adjoint uses the values, information when none does)."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def splat(pos: wp.array(dtype=float), grid: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(grid, i % 4, pos[i])


@wp.kernel
def image_loss(grid: wp.array(dtype=float), loss: wp.array(dtype=float)):
    g = grid[wp.tid()]
    wp.atomic_add(loss, 0, g * g)


@wp.kernel
def linear_loss(grid: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, grid[wp.tid()])


def _fit(clear: bool, reader=image_loss):
    pos = wp.array(np.linspace(0.0, 1.0, 16, dtype=np.float32), requires_grad=True)
    grid = wp.zeros(4, dtype=float, requires_grad=True)  # allocated once
    for _ in range(2):
        if clear:
            grid.zero_()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=16, inputs=[pos], outputs=[grid])  # accumulates
            wp.launch(reader, dim=4, inputs=[grid], outputs=[loss])
        tape.backward(loss)
        tape.zero()
    return grid


def test_an_accumulator_never_cleared(probe):
    grid = _fit(clear=False)
    found = _final(probe.findings("TW209"))
    assert [f["line"] for f in found] == [_line_of("outputs=[grid])  # accumulates")], probe.findings()
    assert found[0]["severity"] == "warning", found[0]
    assert found[0]["message"].startswith("`splat` accumulates into `grid`, which still holds what this launch")
    assert "`image_loss` reads it on this tape and its adjoint uses the values" in found[0]["message"]
    assert grid.numpy().sum() == pytest.approx(2 * 8.0)  # both iterations' splats


def test_an_accumulator_only_summed_is_information(probe):
    _fit(clear=False, reader=linear_loss)
    found = _final(probe.findings("TW209"))
    assert [(f["line"], f["severity"]) for f in found] == [(_line_of("outputs=[grid])  # accumulates"),
                                                            "information")], probe.findings()


def test_an_accumulator_cleared_each_iteration_is_quiet(probe):
    grid = _fit(clear=True)
    assert probe.findings() == []
    assert grid.numpy().sum() == pytest.approx(8.0)


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
