"""Correct: the Drag function of torch_grad_outputs_cleared_by_zero, but the output keeps a gradient
array of its own and the caller's grad_outputs are copied into it, so tape.zero() clears Warp's copy."""

import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)


@wp.kernel
def drag(v: wp.array(dtype=float), cd: float, f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = cd * v[i] * wp.abs(v[i])


class Drag(torch.autograd.Function):
    @staticmethod
    def forward(ctx, v):
        ctx.tape = wp.Tape()
        ctx.v = wp.from_torch(v.detach(), requires_grad=True)
        ctx.f = wp.zeros(v.shape[0], dtype=float, requires_grad=True)
        with ctx.tape:
            wp.launch(drag, dim=v.shape[0], inputs=[ctx.v, 0.47], outputs=[ctx.f])
        return wp.to_torch(ctx.f)

    @staticmethod
    def backward(ctx, adj_f):
        ctx.tape.backward(grads={ctx.f: wp.from_torch(adj_f)})  # copied into ctx.f's own gradient
        dv = wp.to_torch(ctx.v.grad).clone()
        ctx.tape.zero()
        return dv


v = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
weights = torch.tensor([1.0, 0.5, 2.0])
expected = (weights * 0.47 * 2.0 * v.abs()).detach().numpy()
for trial in range(2):
    (dv,) = torch.autograd.grad(Drag.apply(v), v, grad_outputs=weights)
    print("trial", trial, "dF/dv", dv.numpy())
print("expected", expected, "grad_outputs after the calls", weights.numpy())
