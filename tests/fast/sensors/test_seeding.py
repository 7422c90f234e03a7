"""Seeding (``probe/sensors/seeding.py``, ``Seeding``): TW204, a ``backward()`` seeded through ``grads=`` (or
by writing ``.grad``) with something other than the derivative of the loss the program reports.

The objective is read from this file's source (a mean of ``err`` or of its host copy anywhere in it): a
``.sum()`` of ``err`` in another test here would veto it, so the look-alikes keep to the mean."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")

N = 8


@wp.kernel
def sq_error(gain: wp.array(dtype=float), raw: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    d = gain[0] * raw[i] - 1.0
    err[i] = d * d


def _record():
    raw = wp.array(np.linspace(0.5, 2.0, N, dtype=np.float32))
    gain = wp.array([1.0], dtype=float, requires_grad=True)
    err = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(sq_error, dim=N, inputs=[gain, raw], outputs=[err])
    return tape, gain, err


def test_ones_seeding_a_mean(probe):
    tape, gain, err = _record()
    errs = err.numpy()
    objective = float(errs.mean())
    tape.backward(grads={err: wp.ones(N, dtype=float)})  # seeds the sum
    found = _final(probe.findings("TW204"))
    assert [f["line"] for f in found] == [_line_of("# seeds the sum")], probe.findings()
    assert "mean" in found[0]["message"], found[0]["message"]
    assert objective > 0.0


def test_one_over_n_seeding_a_mean_is_quiet(probe):
    tape, gain, err = _record()
    errs = err.numpy()
    objective = float(errs.mean())
    tape.backward(grads={err: wp.full(N, 1.0 / N, dtype=float)})
    assert probe.findings() == []
    assert objective > 0.0


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
