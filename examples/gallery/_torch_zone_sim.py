"""A zone-temperature simulator that records its own Warp tape, and a PyTorch Function over it (for the
torch_function_shares_simulator programs)."""

import copy

import torch
import warp as wp


@wp.kernel
def zone_balance(ua: wp.array(dtype=float), q_int: wp.array(dtype=float), t_out: float, temp: wp.array(dtype=float)):
    z = wp.tid()
    u = 0.1 * ua[z]
    temp[z] = (u * t_out + q_int[z] + 2.0 * 18.0) / (u + 2.0)


class ZoneSim:
    def run(self, ua, t_out, q_int):
        self.ua = wp.from_torch(ua.detach(), requires_grad=True)
        self.temp = wp.zeros(ua.shape[0], dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(zone_balance, dim=ua.shape[0], inputs=[self.ua, wp.from_torch(q_int), t_out],
                      outputs=[self.temp])
        return wp.to_torch(self.temp).clone()

    def adjoint(self, adj_temp):
        self.temp.grad.assign(wp.from_torch(adj_temp.contiguous()))
        self.tape.backward()
        return wp.to_torch(self.ua.grad).clone()


class ZoneTemps(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ua, sim, t_out, q_int, own_copy):
        if own_copy:
            sim = copy.copy(sim)
        out = sim.run(ua, t_out, q_int)
        ctx.sim = sim  # expect[torch_function_shares_simulator]: TW202
        return out

    @staticmethod
    def backward(ctx, adj_temp):
        return ctx.sim.adjoint(adj_temp), None, None, None, None
