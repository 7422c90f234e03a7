"""Correct: torch_function_ignores_incoming_gradient's misfit layer, its backward seeding the tape with
the gradient PyTorch passes in (1/N here)."""

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
N = 6
FLOW = wp.array(np.linspace(0.5, 3.0, N, dtype=np.float32))
HEAD = wp.array((0.8 * np.linspace(0.5, 3.0, N) ** 1.85).astype(np.float32))


@wp.kernel
def misfit(p: wp.array(dtype=float), q: wp.array(dtype=float), h: wp.array(dtype=float),
           sse: wp.array(dtype=float)):
    i = wp.tid()
    r = p[0] * wp.pow(q[i], p[1]) - h[i]
    wp.atomic_add(sse, 0, r * r)


class Misfit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.sse = wp.zeros(1, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(misfit, dim=N, inputs=[ctx.p, FLOW, HEAD], outputs=[ctx.sse])
        return wp.to_torch(ctx.sse).clone()

    @staticmethod
    def backward(ctx, adj_sse):
        ctx.tape.backward(grads={ctx.sse: wp.from_torch(adj_sse.reshape(1).contiguous())})
        return wp.to_torch(ctx.p.grad).clone()


params = torch.tensor([0.7, 1.7], requires_grad=True)
prior = torch.tensor([0.75, 1.8])
loss = Misfit.apply(params).sum() / N + 0.1 * ((params - prior) ** 2).sum()
loss.backward()
print("loss", loss.item(), "gradient", params.grad.numpy())
