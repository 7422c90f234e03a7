"""One ventilation rate shared by eight greenhouse bays, expanded to a per-bay tensor for a Warp layer:
wp.from_torch keeps the expand()'s zero stride, so the eight bays' gradients land in one cell, each
bay's gradient reads the sum, and PyTorch's expand backward sums the eight sums."""

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
N_BAY = 8
VOL = wp.array(np.linspace(800.0, 1500.0, N_BAY, dtype=np.float32))


@wp.kernel
def co2_level(vent: wp.array(dtype=float), vol: wp.array(dtype=float), co2: wp.array(dtype=float)):
    i = wp.tid()
    co2[i] = 400.0 + 5.0e5 / (vol[i] * vent[i])


class BayCO2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, vent):
        ctx.vent = wp.from_torch(vent.detach(), requires_grad=True)  # expect: TW212
        ctx.co2 = wp.zeros(N_BAY, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(co2_level, dim=N_BAY, inputs=[ctx.vent, VOL], outputs=[ctx.co2])
        return wp.to_torch(ctx.co2).clone()

    @staticmethod
    def backward(ctx, adj_co2):
        ctx.tape.backward(grads={ctx.co2: wp.from_torch(adj_co2.contiguous())})
        return wp.to_torch(ctx.vent.grad).clone()


rate = torch.tensor([1.5], requires_grad=True)
co2 = BayCO2.apply(rate.expand(N_BAY))
((co2 - 700.0) ** 2).mean().backward()
print("d loss / d rate", rate.grad.numpy())
