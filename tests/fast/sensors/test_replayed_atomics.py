"""Replayed atomics (``probe/sensors/replayed_atomics.py``, ``ReplayedAtomics``): TW206, an atomic whose
return value a kernel uses, launched on a tape whose ``backward()`` runs (Warp does not replay it)."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def compact(x: wp.array(dtype=float), counter: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    if x[i] > 0.0:
        slot = wp.atomic_add(counter, 0, 1)  # the slot
        out[slot] = x[i] * x[i]


@wp.kernel
def count_and_square(x: wp.array(dtype=float), counter: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    if x[i] > 0.0:
        wp.atomic_add(counter, 0, 1)
        out[i] = x[i] * x[i]


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])


def _run(kernel, differentiate=True):
    x = wp.array(np.array([1.0, -1.0, 2.0, 3.0, -2.0, 4.0], dtype=np.float32), requires_grad=True)
    counter = wp.zeros(1, dtype=int)
    out = wp.zeros(6, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(kernel, dim=6, inputs=[x, counter], outputs=[out])
        wp.launch(total, dim=6, inputs=[out], outputs=[loss])
    if differentiate:
        tape.backward(loss)
    else:
        tape.reset()
    return x


def test_an_atomics_result_used_on_a_differentiated_tape(probe):
    x = _run(compact)
    found = _final(probe.findings("TW206"))
    assert [f["line"] for f in found] == [_line_of("slot = wp.atomic_add(counter, 0, 1)  # the slot")], \
        probe.findings()
    assert found[0]["message"].startswith("The return value of `wp.atomic_add` on `counter` is used in `compact`")
    assert not np.allclose(x.grad.numpy(), [2.0, 0.0, 4.0, 6.0, 0.0, 8.0])  # the wrong gradient it warns of


def test_an_atomics_result_unused_is_quiet(probe):
    x = _run(count_and_square)
    assert probe.findings() == []
    assert x.grad.numpy() == pytest.approx([2.0, 0.0, 4.0, 6.0, 0.0, 8.0])


def test_a_tape_never_differentiated_is_quiet(probe):
    _run(compact, differentiate=False)
    assert probe.findings("TW206") == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
