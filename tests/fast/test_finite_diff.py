"""The per-launch check judges only what float32 can show: a derivative drowned in rounding is
inconclusive, never a failure, and a wrong adjoint still fails."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def drowned(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = (1.0 + x[i] * 1.0e-9) - 1.0  # d out/d x = 1e-9: float32 around 1.0 cannot show it


@wp.func
def cube(v: float):
    return v * v * v


@wp.func_grad(cube)
def adj_cube(v: float, adj_ret: float):
    wp.adjoint[v] += 2.0 * v * v * adj_ret  # should be 3 v^2


@wp.kernel
def cubed(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = cube(x[i])


def _checked(probe, kernel):
    x = wp.array(np.linspace(0.5, 1.5, 8).astype(np.float32), requires_grad=True)
    out = wp.zeros(8, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(kernel, dim=8, inputs=[x], outputs=[out])
    tape.backward(grads={out: wp.ones(8)})
    return [e for e in probe.events if e["event"] == "launch_check" and e["kernel_name"] == kernel.key]


def test_a_derivative_below_float32_resolution_is_inconclusive(probe):
    (check,) = _checked(probe, drowned)
    assert check["status"] == "inconclusive", check
    assert check["reason"].startswith("below float32 resolution")
    assert probe.findings("TW404") == []


def test_a_wrong_custom_adjoint_still_fails(probe):
    (check,) = _checked(probe, cubed)
    assert check["status"] == "fail"
    assert [f["line"] for f in probe.findings("TW404")]
