"""PyTorch interop (``probe/sensors/torch_interop.py``, ``TorchInterop``): TW210, a caller's seed tensor Warp
cleared and is seeded with again; TW211, a leaf's ``.grad`` that Warp's adjoint and PyTorch both add to;
TW212, an expanded tensor's one gradient cell; TW213, a returned view zeroed first; TW214, a ``.grad``
``zero_grad()`` dropped; TW204, a Function's backward seeded with one.  Each next to its look-alike."""

from __future__ import annotations

import numpy as np
import pytest
import torch

wp = pytest.importorskip("warp")


@wp.kernel
def cube(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i] * x[i]


@wp.kernel
def cube_sum(x: wp.array(dtype=float), total: wp.array(dtype=float)):
    wp.atomic_add(total, 0, x[wp.tid()] * x[wp.tid()] * x[wp.tid()])


def _function(seed_shared: bool, leaf_wrapped: bool, zero_after: bool = True):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tape = wp.Tape()
            if leaf_wrapped:
                ctx.x = wp.from_torch(x, requires_grad=True)  # the leaf's own .grad
            else:
                ctx.x = wp.from_torch(x, grad=torch.zeros_like(x))  # a gradient of its own
            ctx.y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(cube, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.y])
            return wp.to_torch(ctx.y)

        @staticmethod
        def backward(ctx, adj_y):
            if seed_shared:
                ctx.y.grad = wp.from_torch(adj_y)  # the caller's tensor
            else:
                ctx.y.grad.assign(wp.from_torch(adj_y))  # copied
            ctx.tape.backward()
            dx = wp.to_torch(ctx.x.grad).clone()
            if zero_after:
                ctx.tape.zero()  # (also clears a wrapped leaf's .grad before PyTorch adds dx: counted once)
            return dx

    return Cube


X0 = [1.0, 2.0, 0.5]


def test_seed_cleared_by_warp_and_passed_again(probe):
    Cube = _function(seed_shared=True, leaf_wrapped=False)
    x = torch.tensor(X0, requires_grad=True)
    v = torch.tensor([1.0, -1.0, 2.0])
    grads = [torch.autograd.grad(Cube.apply(x), x, grad_outputs=v)[0].numpy() for _ in range(2)]
    found = _final(probe.findings("TW210"))
    assert [f["line"] for f in found] == [_line_of("ctx.y.grad = wp.from_torch(adj_y)  # the caller's")], \
        probe.findings()
    assert "seeded with zeros" in found[0]["message"] and "wp.from_torch(adj_y.clone())" in found[0]["message"]
    assert {r["role"] for r in found[0]["related"]} >= {"cleared", "backward"}
    # what it warns of: right the first time, zero the second, the caller's tensor cleared
    np.testing.assert_allclose(grads[0], 3.0 * np.array(X0) ** 2 * [1.0, -1.0, 2.0], rtol=1e-6)
    assert not grads[1].any() and not v.any()


def test_seed_copied_into_warps_own_gradient_is_quiet(probe):
    Cube = _function(seed_shared=False, leaf_wrapped=False)
    x = torch.tensor(X0, requires_grad=True)
    v = torch.tensor([1.0, -1.0, 2.0])
    grads = [torch.autograd.grad(Cube.apply(x), x, grad_outputs=v)[0].numpy() for _ in range(2)]
    assert probe.findings() == []
    np.testing.assert_allclose(grads[1], grads[0])


def test_leaf_gradient_counted_twice(probe):
    Cube = _function(seed_shared=False, leaf_wrapped=True, zero_after=False)
    x = torch.tensor(X0, requires_grad=True)
    (Cube.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    found = _final(probe.findings("TW211"))
    assert [f["line"] for f in found] == [_line_of("requires_grad=True)  # the leaf's own .grad")], probe.findings()
    assert found[0]["data"]["ratio"] == pytest.approx(2.0)
    assert "receives its gradient twice" in found[0]["message"]
    # what it warns of: x.grad is twice d/dx sum(w x^3)
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * 3.0 * np.array(X0) ** 2 * [1.0, 2.0, 3.0], rtol=1e-6)


@pytest.mark.parametrize("leaf_wrapped", [False, True], ids=["own-gradient", "wrapped-then-zeroed"])
def test_leaf_gradient_counted_once_is_quiet(probe, leaf_wrapped):
    Cube = _function(seed_shared=False, leaf_wrapped=leaf_wrapped, zero_after=True)
    x = torch.tensor(X0, requires_grad=True)
    (Cube.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert probe.findings() == []
    np.testing.assert_allclose(x.grad.numpy(), 3.0 * np.array(X0) ** 2 * [1.0, 2.0, 3.0], rtol=1e-6)


def test_leaf_written_in_place_and_nothing_returned_is_quiet(probe):
    """Warp's in-place write is the gradient when the Function returns None for the input."""

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tape = wp.Tape()
            ctx.x = wp.from_torch(x, requires_grad=True)
            ctx.y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(cube, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.y])
            return wp.to_torch(ctx.y)

        @staticmethod
        def backward(ctx, adj_y):
            ctx.tape.backward(grads={ctx.y: wp.from_torch(adj_y.contiguous())})
            return None

    x = torch.tensor(X0, requires_grad=True)
    (Cube.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert probe.findings() == []


@pytest.mark.parametrize("zeroed", [False, True], ids=["adds-to-the-first", "zeroed-first"])
def test_a_functions_backward_run_twice(probe, zeroed):
    """TW202's re-entrant trigger (``gradients_not_zeroed.py``): PyTorch runs a Function's backward again
    through a retained graph, and the tape's backward adds to the gradient the first call left."""

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tape = wp.Tape()
            ctx.x = wp.from_torch(x.detach(), requires_grad=True)
            ctx.y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(cube, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.y])
            return wp.to_torch(ctx.y)

        @staticmethod
        def backward(ctx, adj_y):
            seed = wp.from_torch(adj_y.contiguous())  # the Function's first statement
            if zeroed:
                ctx.tape.zero()
            ctx.tape.backward(grads={ctx.y: seed})  # twice
            return wp.to_torch(ctx.x.grad).clone()

    x = torch.tensor(X0, requires_grad=True)
    y = Cube.apply(x)
    v = torch.ones(3)
    first = torch.autograd.grad(y, x, grad_outputs=v, retain_graph=True)[0]
    second = torch.autograd.grad(y, x, grad_outputs=v)[0]
    found = _final(probe.findings("TW202"))
    if zeroed:
        assert found == [] and probe.findings() == []
        np.testing.assert_allclose(second.numpy(), first.numpy())
        return
    # at the top of the Function's backward, where tape.zero() goes (after the seed is written it would clear it)
    assert [f["line"] for f in found] == [_line_of("# the Function's first statement")], probe.findings()
    assert _line_of("# twice") in [r["line"] for r in found[0]["related"]]
    assert found[0]["data"]["reentrant"] and "returns the sum of both calls" in found[0]["message"]
    np.testing.assert_allclose(second.numpy(), 2.0 * first.numpy(), rtol=1e-6)  # what it warns of


@pytest.mark.parametrize("uses_incoming", [False, True], ids=["ignores-it", "scales-by-it"])
def test_a_functions_backward_that_seeds_with_one(probe, uses_incoming):
    """TW204 inside a Function's backward: ``tape.backward(loss=...)`` ignores PyTorch's incoming gradient."""

    class Total(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tape = wp.Tape()
            ctx.x = wp.from_torch(x.detach(), requires_grad=True)
            ctx.total = wp.zeros(1, dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(cube_sum, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.total])
            return wp.to_torch(ctx.total).clone()

        @staticmethod
        def backward(ctx, adj_total):
            ctx.tape.backward(loss=ctx.total)  # seeded with one
            return wp.to_torch(ctx.x.grad).clone()

    class ScaledTotal(Total):
        @staticmethod
        def backward(ctx, adj_total):
            ctx.tape.backward(loss=ctx.total)
            return wp.to_torch(ctx.x.grad).clone() * adj_total  # (the incoming gradient, used)

    if uses_incoming:
        Total = ScaledTotal
    x = torch.tensor(X0, requires_grad=True)
    (Total.apply(x).sum() / 4.0).backward()
    found = _final(probe.findings("TW204"))
    if uses_incoming:
        assert probe.findings() == []
        np.testing.assert_allclose(x.grad.numpy(), 0.75 * np.array(X0) ** 2, rtol=1e-6)
        return
    assert [f["line"] for f in found] == [_line_of("# seeded with one")], probe.findings()
    assert "PyTorch passes adj_total = 0.25" in found[0]["message"]
    np.testing.assert_allclose(x.grad.numpy(), 3.0 * np.array(X0) ** 2, rtol=1e-6)  # what it warns of: 4x


@pytest.mark.parametrize("contiguous", [False, True], ids=["expanded", "contiguous"])
def test_an_expanded_tensor_given_a_gradient(probe, contiguous):
    """TW212: ``wp.from_torch`` of an ``expand()`` view keeps its zero stride (one gradient cell)."""
    x = torch.tensor([1.5]).expand(4)
    xw = wp.from_torch(x.contiguous() if contiguous else x, requires_grad=True)  # an expand() view
    total = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cube_sum, dim=4, inputs=[xw], outputs=[total])
    tape.backward(total)
    found = _final(probe.findings("TW212"))
    if contiguous:
        assert probe.findings() == []
        return
    assert [f["line"] for f in found] == [_line_of("# an expand() view")], probe.findings()
    assert found[0]["data"]["elements_per_cell"] == 4


@pytest.mark.parametrize("copy", [False, True], ids=["view", "copy"])
def test_a_returned_view_zeroed_before_the_return(probe, copy):
    """TW213: the Function returns a ``wp.to_torch`` view of a gradient it zeroed first."""

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tape = wp.Tape()
            ctx.x = wp.from_torch(x.detach(), requires_grad=True)
            ctx.y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(cube, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.y])
            return wp.to_torch(ctx.y).clone()

        @staticmethod
        def backward(ctx, adj_y):
            ctx.tape.backward(grads={ctx.y: wp.from_torch(adj_y.contiguous())})
            dx = wp.to_torch(ctx.x.grad).clone() if copy else wp.to_torch(ctx.x.grad)  # the returned view
            ctx.tape.zero()
            return dx

    x = torch.tensor(X0, requires_grad=True)
    (Cube.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    found = _final(probe.findings("TW213"))
    if copy:
        assert probe.findings() == []
        return
    assert [f["line"] for f in found] == [_line_of("# the returned view")], probe.findings()
    assert not x.grad.any()  # what it warns of: PyTorch got zeros


@pytest.mark.parametrize("set_to_none", [True, False], ids=["dropped", "kept"])
def test_zero_grad_drops_the_buffer_warp_writes(probe, set_to_none):
    """TW214: ``zero_grad()`` sets the wrapped ``.grad`` to None; at the step the optimizer has no gradient."""
    p = torch.nn.Parameter(torch.tensor(X0))
    pw = wp.from_torch(p)
    opt = torch.optim.SGD([p], lr=0.01)
    for _ in range(2):
        opt.zero_grad(set_to_none=set_to_none)  # drops it
        total = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(cube_sum, dim=3, inputs=[pw], outputs=[total])
        tape.backward(total)
        opt.step()
    found = _final(probe.findings("TW214"))
    if not set_to_none:
        assert probe.findings() == []
        return
    assert [f["line"] for f in found] == [_line_of("# drops it")], probe.findings()
    np.testing.assert_allclose(p.detach().numpy(), X0)  # what it warns of: the step never moved p


@pytest.mark.parametrize("copy", [False, True], ids=["shared", "copied"])
def test_a_tensor_pytorch_refills_before_the_backward(probe, copy):
    """TW106 by value: the tape read PyTorch's memory, PyTorch wrote it before the backward (Warp saw no write)."""
    staging = torch.zeros(3)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for values in (X0, [2.0, 2.0, 2.0]):
        staging.copy_(torch.tensor(values))
        xw = wp.from_torch(staging.clone() if copy else staging, requires_grad=True)  # the staging tensor
        with tape:
            wp.launch(cube_sum, dim=3, inputs=[xw], outputs=[total])
    tape.backward(total)
    found = _final(probe.findings("TW106"))
    if copy:
        assert probe.findings() == []
        return
    assert [f["line"] for f in found] == [_line_of("# the staging tensor")], probe.findings()
    assert found[0]["data"]["writer"] == "torch" and found[0]["data"]["changed"] == 2  # (X0[1] is 2.0 already)


@pytest.mark.parametrize("own_copy", [False, True], ids=["shared", "own-copy"])
def test_a_simulator_shared_by_two_calls_of_a_function(probe, own_copy):
    """TW202 when two calls of a Function keep one object in ctx: the later forward replaced its tape."""
    import copy as copying

    class Sim:
        def run(self, x):
            self.x = wp.from_torch(x.detach(), requires_grad=True)
            self.y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
            self.tape = wp.Tape()
            with self.tape:
                wp.launch(cube, dim=x.shape[0], inputs=[self.x], outputs=[self.y])
            return wp.to_torch(self.y).clone()

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, sim):
            sim = copying.copy(sim) if own_copy else sim
            out = sim.run(x)
            ctx.sim = sim  # the shared object
            return out

        @staticmethod
        def backward(ctx, adj_y):
            ctx.sim.tape.backward(grads={ctx.sim.y: wp.from_torch(adj_y.contiguous())})
            return wp.to_torch(ctx.sim.x.grad).clone(), None

    x = torch.tensor(X0, requires_grad=True)
    sim = Sim()
    first, second = Cube.apply(x, sim), Cube.apply(x, sim)  # two calls, one simulator
    ((first * torch.tensor([1.0, 2.0, 3.0])).sum() + second.sum()).backward()
    found = _final(probe.findings("TW202"))
    if own_copy:
        assert probe.findings() == []
        return
    assert [f["line"] for f in found] == [_line_of("# the shared object")], probe.findings()
    assert found[0]["data"]["shared"] == "sim"


def _final(found: list) -> list:
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
