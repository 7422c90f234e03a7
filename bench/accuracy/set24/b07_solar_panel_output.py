"""Rooftop PV array: module efficiency and NOCT fitted to a day of hourly inverter logs.

Each hour the logger's sensor frame (irradiance, ambient temperature, wind per panel) is
staged into one preallocated tensor and handed to a Warp kernel as a wp.vec3 array
through a torch.autograd.Function; the day's losses are summed and back-propagated once.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

N_PANEL, N_HOUR = 6, 8
AREA = 1.7
BETA = 0.004
TILT = wp.array(np.linspace(0.85, 1.05, N_PANEL).astype(np.float32), dtype=float)
TRUE = np.array([1.92, 1.12])                    # efficiency x10, NOCT / 40 C
PARAMS0 = np.array([1.60, 1.35])
rng = np.random.default_rng(8)
hours = np.arange(N_HOUR)
G_H = 0.25 + 0.7 * np.sin(np.pi * (hours + 0.5) / N_HOUR)            # kW/m^2
WEATHER = np.stack([np.stack([G_H[h] * (1 + 0.05 * rng.standard_normal(N_PANEL)),
                              np.full(N_PANEL, 14.0 + 2.0 * h),
                              1.0 + 3.0 * rng.random(N_PANEL)], axis=1) for h in range(N_HOUR)]).astype(np.float32)


def _power_np(p, w, tilt):
    g, ta, wind = w[:, 0] * tilt, w[:, 1], w[:, 2]
    tc = ta + g / 0.8 * (40.0 * p[1] - 20.0) * 9.5 / (5.7 + 3.8 * wind)
    return 0.1 * p[0] * g * AREA * (1.0 - BETA * (tc - 25.0))


P_MEAS = [_power_np(TRUE, WEATHER[h], TILT.numpy()).astype(np.float32) for h in range(N_HOUR)]


@wp.kernel
def panel_power(p: wp.array(dtype=float), wx: wp.array(dtype=wp.vec3), tilt: wp.array(dtype=float),
                power: wp.array(dtype=float)):
    i = wp.tid()
    w = wx[i]
    g = w[0] * tilt[i]
    t_cell = w[1] + g / 0.8 * (40.0 * p[1] - 20.0) * 9.5 / (5.7 + 3.8 * w[2])
    power[i] = 0.1 * p[0] * g * AREA * (1.0 - BETA * (t_cell - 25.0))


class PanelPower(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, frame):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.wx = wp.from_torch(frame, dtype=wp.vec3)  # expect: torch_interop
        ctx.power = wp.zeros(N_PANEL, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(panel_power, dim=N_PANEL, inputs=[ctx.p, ctx.wx, TILT], outputs=[ctx.power])
        return wp.to_torch(ctx.power, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_power):
        ctx.power.grad.assign(wp.from_torch(adj_power.contiguous()))
        ctx.tape.backward()
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone(), None


FRAME = torch.empty((N_PANEL, 3), dtype=torch.float32)       # staging buffer for the logger frames


def day_loss(p_t):
    loss = torch.zeros(())
    for h in range(N_HOUR):
        FRAME.copy_(torch.from_numpy(WEATHER[h]))
        power = PanelPower.apply(p_t, FRAME)
        loss = loss + (((power - torch.from_numpy(P_MEAS[h])) * 10.0) ** 2).mean()
    return loss


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = day_loss(p_t)
    loss.backward()
    return float(loss.detach()), p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.03)
    for it in range(40):
        opt.zero_grad()
        loss = day_loss(p_t)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.4f} eff={10 * p_t[0].item():.2f}% NOCT={40 * p_t[1].item():.1f} C")
