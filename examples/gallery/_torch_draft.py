"""A chimney-draft layer for PyTorch, backed by a Warp kernel (for the torch_returned_* programs)."""

import torch
import warp as wp


@wp.kernel
def stack_flow(p: wp.array(dtype=float), t_flue: wp.array(dtype=float), flow: wp.array(dtype=float)):
    i = wp.tid()
    dt = t_flue[i] - 20.0
    flow[i] = p[0] * wp.sqrt(p[1] * dt / (t_flue[i] + 273.0))


class Draft(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, t_flue, copy):
        ctx.copy = copy
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.flow = wp.zeros(t_flue.shape[0], dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(stack_flow, dim=t_flue.shape[0], inputs=[ctx.p, wp.from_torch(t_flue)], outputs=[ctx.flow])
        return wp.to_torch(ctx.flow).clone()

    @staticmethod
    def backward(ctx, adj_flow):
        ctx.tape.backward(grads={ctx.flow: wp.from_torch(adj_flow.contiguous())})
        if ctx.copy:
            grad_p = wp.to_torch(ctx.p.grad).clone()
        else:
            grad_p = wp.to_torch(ctx.p.grad)  # expect[torch_returned_view_zeroed]: TW213
        ctx.tape.zero()  # leave the tape clean
        return grad_p, None, None
