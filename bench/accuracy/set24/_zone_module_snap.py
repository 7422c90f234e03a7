"""Steady-state thermal balance of a row of office zones, run on Warp and exposed to torch."""
import copy

import torch
import warp as wp


@wp.kernel
def zone_balance(ua: wp.array(dtype=float), q_int: wp.array(dtype=float), t_out: float, h_sys: float,
                 t_supply: float, temp: wp.array(dtype=float)):
    z = wp.tid()
    u = 0.1 * ua[z]                                   # kW/K
    temp[z] = (u * t_out + q_int[z] + h_sys * t_supply) / (u + h_sys)


class ZoneSim:
    def __init__(self, n_zones, config):
        self.n = n_zones
        self.config = copy.deepcopy(config)

    def run(self, ua, t_out, q_int):
        self.ua = wp.from_torch(ua.detach(), requires_grad=True)
        self.q = wp.array(q_int, dtype=float)
        self.temp = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(zone_balance, dim=self.n,
                      inputs=[self.ua, self.q, float(t_out), self.config["h_sys"], self.config["t_supply"]],
                      outputs=[self.temp])
        return wp.to_torch(self.temp, requires_grad=False).clone()

    def adjoint(self, adj_temp):
        self.temp.grad.assign(wp.from_torch(adj_temp.contiguous()))
        self.tape.backward()
        return wp.to_torch(self.ua.grad, requires_grad=False).clone()


class ZoneTemps(torch.autograd.Function):
    @staticmethod
    def forward(ctx, ua, sim, t_out, q_int):
        out = sim.run(ua, t_out, q_int)
        ctx.sim = copy.copy(sim)
        return out

    @staticmethod
    def backward(ctx, adj_temp):
        return ctx.sim.adjoint(adj_temp), None, None, None
