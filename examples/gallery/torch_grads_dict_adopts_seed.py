"""Two wind sites' power matrices from one Warp layer, seeded by torch.autograd.backward with one hours
tensor for both: the power array is allocated without a gradient array, so tape.backward(grads=...)
adopts the caller's tensor as that gradient, and the first backward's clearing leaves zeros for the
second site."""
# tapewatch-test: warp>=1.19  (Warp 1.14 keeps an output's gradient after its adjoint reads it)

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
N_T, N_V = 3, 4


@wp.kernel
def power_matrix(p: wp.array(dtype=float), shear: wp.array(dtype=float), v: wp.array(dtype=float),
                 power: wp.array2d(dtype=float)):
    t, b = wp.tid()
    u = v[b] * shear[t]
    power[t, b] = p[0] * u * u * u


class SitePower(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, shear, v):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.power = wp.zeros((N_T, N_V), dtype=float)  # expect: TW210
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(power_matrix, dim=(N_T, N_V), inputs=[ctx.p, wp.from_torch(shear), wp.from_torch(v)],
                      outputs=[ctx.power])
        return wp.to_torch(ctx.power).clone()

    @staticmethod
    def backward(ctx, adj_power):
        ctx.tape.backward(grads={ctx.power: wp.from_torch(adj_power.contiguous())})
        return wp.to_torch(ctx.p.grad).clone(), None, None


params = torch.tensor([0.02], requires_grad=True)
v = torch.tensor([4.0, 7.0, 10.0, 13.0])
hours = torch.tensor(np.full((N_T, N_V), 200.0, dtype=np.float32))
powers = [SitePower.apply(params, torch.tensor(s), v) for s in ([1.0, 0.9, 1.1], [1.2, 1.0, 0.8])]
torch.autograd.backward(powers, grad_tensors=[hours, hours])
print("dE/dp", params.grad.numpy(), "hours after", hours.numpy()[0])
