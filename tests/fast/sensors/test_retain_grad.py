"""The ``retain_grad`` writers (``probe/sensors/retain_grad.py``, ``RetainGradWriters``): TW203, an array
made with ``retain_grad=True`` that two writers assign on one tape, reported on its allocation."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def spring(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = k[0] * x[i] * x[i]


@wp.kernel
def spring_add(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(f, i, k[0] * x[i] * x[i])


@wp.kernel
def work(f: wp.array(dtype=float), e: wp.array(dtype=float)):
    wp.atomic_add(e, 0, f[wp.tid()])


def _params():
    x = wp.array(np.linspace(0.5, 1.5, 8, dtype=np.float32), requires_grad=True)
    k = wp.array([2.0], dtype=float, requires_grad=True)
    return x, k, wp.zeros(1, dtype=float, requires_grad=True)


def test_two_writers_of_a_retained_gradient(probe):
    x, k, e = _params()
    f = wp.zeros(8, dtype=float, requires_grad=True, retain_grad=True)  # two writers
    tape = wp.Tape()
    with tape:
        wp.launch(spring, dim=8, inputs=[x, k], outputs=[f])
        wp.launch(spring, dim=8, inputs=[x, k], outputs=[f])  # again
        wp.launch(work, dim=8, inputs=[f], outputs=[e])
    tape.backward(e)
    found = _final(probe.findings("TW203"))
    assert [f["line"] for f in found] == [_line_of("retain_grad=True)  # two writers")], probe.findings()
    assert found[0]["message"].startswith("`f` is allocated here with retain_grad=True, and `spring` then `spring`")
    assert _line_of("outputs=[f])  # again") in [r["line"] for r in found[0]["related"]]
    assert "receive it and everything upstream of them gets it twice" in found[0]["message"]
    # what it warns of: both adjoints get the gradient, k's is doubled (e = sum(k x^2): sum(x^2) is right)
    assert k.grad.numpy()[0] == pytest.approx(2.0 * float(np.sum(x.numpy() ** 2)), rel=1e-5)


def test_one_writer_of_a_retained_gradient_is_quiet(probe):
    x, k, e = _params()
    f = wp.zeros(8, dtype=float, requires_grad=True, retain_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spring, dim=8, inputs=[x, k], outputs=[f])
        wp.launch(work, dim=8, inputs=[f], outputs=[e])
    tape.backward(e)
    assert probe.findings() == []


def test_two_accumulating_writers_are_quiet(probe):
    x, k, e = _params()
    f = wp.zeros(8, dtype=float, requires_grad=True, retain_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spring_add, dim=8, inputs=[x, k], outputs=[f])
        wp.launch(spring_add, dim=8, inputs=[x, k], outputs=[f])
        wp.launch(work, dim=8, inputs=[f], outputs=[e])
    tape.backward(e)
    assert probe.findings() == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
