"""The backward checks (``probe/backward/``, ``BackwardChecks``): TW403 (a non-finite gradient, placed on the
operation whose derivative is singular), TW404 (a launch's adjoint disagrees with finite differences; the
fast tier's probe checks launches) and TW405 (a launch on a differentiated tape of a kernel built without
a backward pass)."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def root_sum(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.sqrt(x[i])  # singular at 0
    wp.atomic_add(loss, 0, r)


@wp.func
def soft(u: float):
    return 2.0 * u / wp.sqrt(4.0 + u * u)


@wp.func_grad(soft)
def adj_soft(u: float, adj_ret: float):
    wp.adjoint[u] += adj_ret * 2.0 / wp.sqrt(4.0 + u * u)  # misses the 4 / (4 + u^2) factor


@wp.func
def cube(u: float):
    return u * u * u


@wp.func_grad(cube)
def adj_cube(u: float, adj_ret: float):
    wp.adjoint[u] += adj_ret * 3.0 * u * u


@wp.kernel
def actuate_soft(u: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, soft(u[wp.tid()]))


@wp.kernel
def actuate_cube(u: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, cube(u[wp.tid()]))


@wp.kernel(enable_backward=False)
def damp(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 0.5 * x[i]


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])


def _x(values):
    return wp.array(np.array(values, dtype=np.float32), requires_grad=True)


def _loss():
    return wp.zeros(1, dtype=float, requires_grad=True)


def test_a_nan_gradient_from_a_singular_sqrt(probe):
    x, loss = _x([0.0, 1.0, 4.0, 0.0]), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(root_sum, dim=4, inputs=[x], outputs=[loss])
    tape.backward(loss)
    assert not np.all(np.isfinite(x.grad.numpy()))
    found = _final(probe.findings("TW403"))
    assert [f["line"] for f in found] == [_line_of("r = wp.sqrt(x[i])  # singular at 0")], probe.findings()
    assert found[0]["message"].startswith("The backward pass of `root_sum` is the first to produce Inf gradients")
    assert "`wp.sqrt` on this line is singular in 2 of 4 threads" in found[0]["message"]


def test_finite_gradients_are_quiet(probe):
    x, loss = _x([1.0, 1.0, 4.0, 9.0]), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(root_sum, dim=4, inputs=[x], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []
    assert x.grad.numpy() == pytest.approx([0.5, 0.5, 0.25, 1.0 / 6.0])


def test_a_wrong_custom_adjoint(probe):
    u, loss = _x([-1.0, 0.5, 1.0, 2.0]), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(actuate_soft, dim=4, inputs=[u], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW404"))
    assert [f["line"] for f in found] == [_line_of("# misses the 4 / (4 + u^2) factor")], probe.findings()
    assert found[0]["message"].startswith("The custom adjoint of `soft` makes the adjoint of `actuate_soft` "
                                          "disagree with finite differences at its launch")
    checks = probe.at_exit()["launch_checks"]
    assert checks["checked"] == 1 and checks["passed"] == 0, checks


def test_a_right_custom_adjoint_passes(probe):
    u, loss = _x([-1.0, 0.5, 1.0, 2.0]), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(actuate_cube, dim=4, inputs=[u], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []
    checks = probe.at_exit()["launch_checks"]
    assert checks["checked"] == 1 and checks["passed"] == 1, checks


@pytest.mark.parametrize("kernel, wrong", [(actuate_soft, True), (actuate_cube, False)], ids=["wrong", "right"])
def test_an_adjoint_the_program_launches_itself(probe, kernel, wrong):
    """``wp.launch(..., adjoint=True)`` with the gradients passed explicitly (arrays without requires_grad, no
    tape: a torch.autograd.Function's backward): the kernel's adjoint is checked as a taped launch's is."""
    u = wp.array(np.array([-1.0, 0.5, 1.0, 2.0], dtype=np.float32))
    loss = wp.zeros(1, dtype=float)
    wp.launch(kernel, dim=4, inputs=[u], outputs=[loss])
    adj_u, adj_loss = wp.zeros_like(u), wp.ones(1, dtype=float)
    wp.launch(kernel, dim=4, inputs=[u], outputs=[loss], adj_inputs=[adj_u], adj_outputs=[adj_loss], adjoint=True)
    found = _final(probe.findings("TW404"))
    assert [f["line"] for f in found] == ([_line_of("# misses the 4 / (4 + u^2) factor")] if wrong else []), \
        probe.findings()
    checks = probe.at_exit()["launch_checks"]
    assert checks["checked"] == 1 and checks["passed"] == (0 if wrong else 1), checks


def test_a_launch_without_adjoint_on_the_path(probe):
    x, y, loss = _x([1.0, 2.0, 3.0, 4.0]), _x([0.0] * 4), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(damp, dim=4, inputs=[x], outputs=[y])  # no backward
        wp.launch(total, dim=4, inputs=[y], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW405"))
    assert [f["line"] for f in found] == [_line_of("@wp.kernel(enable_backward=False)")], probe.findings()
    assert found[0]["severity"] == "warning", found[0]
    assert found[0]["message"].startswith("enable_backward=False (kernel option) leaves `damp` without an adjoint")
    assert "everything upstream of it (`x`) gets no gradient" in found[0]["message"]
    assert _line_of("outputs=[y])  # no backward") in [r["line"] for r in found[0]["related"]]
    assert not np.any(x.grad.numpy())


def test_a_launch_without_adjoint_off_the_path_is_information(probe):
    x, y, loss = _x([1.0, 2.0, 3.0, 4.0]), _x([0.0] * 4), _loss()
    tape = wp.Tape()
    with tape:
        wp.launch(damp, dim=4, inputs=[x], outputs=[y])
        wp.launch(total, dim=4, inputs=[x], outputs=[loss])
    tape.backward(loss)
    found = _final(probe.findings("TW405"))
    assert [(f["line"], f["severity"]) for f in found] == [(_line_of("@wp.kernel(enable_backward=False)"),
                                                            "information")], probe.findings()


def test_a_launch_without_adjoint_outside_the_tape_is_quiet(probe):
    x, y, loss = _x([1.0, 2.0, 3.0, 4.0]), _x([0.0] * 4), _loss()
    wp.launch(damp, dim=4, inputs=[x], outputs=[y])
    tape = wp.Tape()
    with tape:
        wp.launch(total, dim=4, inputs=[y], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
