"""Greenhouse CO2 enrichment: ventilation rate (shared by all bays) and burner injection
efficiency fitted to steady bay CO2 readings.

The Warp kernel takes a per-bay ventilation array (bays may later get their own vents);
for now the single fitted rate is broadcast to every bay with torch's expand.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

N_BAY = 8
C_OUT = 415.0                                                     # ppm
VOL = np.linspace(0.8, 1.4, N_BAY).astype(np.float32)            # 1000 m^3
INJ = np.array([9, 12, 10, 14, 11, 8, 13, 10], dtype=np.float32)  # injection, scaled units
TRUE = np.array([1.8, 0.72])                                      # air changes per hour / 0.1, efficiency
PARAMS0 = np.array([1.2, 0.55])
rng = np.random.default_rng(23)
C_MEAS = (C_OUT + 100.0 * TRUE[1] * INJ / (VOL * TRUE[0]) + 5.0 * rng.standard_normal(N_BAY)).astype(np.float32)
VOL_W = wp.array(VOL, dtype=float)
INJ_W = wp.array(INJ, dtype=float)


@wp.kernel
def bay_co2(vent: wp.array(dtype=float), eta: wp.array(dtype=float), vol: wp.array(dtype=float),
            inj: wp.array(dtype=float), co2: wp.array(dtype=float)):
    i = wp.tid()
    co2[i] = C_OUT + 100.0 * eta[0] * inj[i] / (vol[i] * vent[i])


class BayCO2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, vent, eta):
        ctx.vent = wp.from_torch(vent.detach(), requires_grad=True)  # expect: torch_interop
        ctx.eta = wp.from_torch(eta.detach(), requires_grad=True)
        ctx.co2 = wp.zeros(N_BAY, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(bay_co2, dim=N_BAY, inputs=[ctx.vent, ctx.eta, VOL_W, INJ_W], outputs=[ctx.co2])
        return wp.to_torch(ctx.co2, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_co2):
        ctx.co2.grad.assign(wp.from_torch(adj_co2.contiguous()))
        ctx.tape.backward()
        return (wp.to_torch(ctx.vent.grad, requires_grad=False).clone(),
                wp.to_torch(ctx.eta.grad, requires_grad=False).clone())


def co2_loss(p_t):
    vent = p_t[0:1].expand(N_BAY)
    co2 = BayCO2.apply(vent, p_t[1:2])
    return (((co2 - torch.from_numpy(C_MEAS)) / 50.0) ** 2).mean()


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = co2_loss(p_t)
    loss.backward()
    return float(loss.detach()), p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.03)
    for it in range(50):
        opt.zero_grad()
        loss = co2_loss(p_t)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.4f} ach={0.1 * p_t[0].item():.3f} 1/h eta={p_t[1].item():.3f}")
