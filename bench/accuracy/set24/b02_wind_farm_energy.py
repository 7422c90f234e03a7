"""Wind farm annual energy: a two-parameter power curve calibrated against metered yield.

Each site's power matrix (turbines x wind-speed bins, a 2-D Warp array) comes from a
Warp kernel wrapped in a torch.autograd.Function. The annual energy is the bin-hours
weighted sum of the power matrices of both sites, and its sensitivity is obtained with
torch.autograd.backward(..., grad_tensors=[hours, hours]).
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

N_TURB, N_BIN = 4, 12
V_BIN = np.linspace(3.5, 14.5, N_BIN)
HOURS = np.array([900, 850, 800, 760, 700, 620, 540, 420, 330, 240, 160, 100], dtype=np.float64) / 1000.0
SITE_SHEAR = [np.array([0.92, 0.97, 1.0, 1.04]), np.array([1.06, 1.02, 0.98, 0.95])]
V_RATED = 12.0
TRUE = np.array([0.46, 2.1])                 # power coefficient, rotor area factor
PARAMS0 = np.array([0.40, 2.4])
METERED = None


@wp.kernel
def power_matrix(p: wp.array(dtype=float), shear: wp.array(dtype=float), v_bin: wp.array(dtype=float),
                 power: wp.array2d(dtype=float)):
    t, b = wp.tid()
    v = wp.min(v_bin[b] * shear[t], V_RATED)
    # 0.5 rho A cp v^3 in MW, rho = 1.225, area factor in 1e4 m^2
    power[t, b] = 0.5 * 1.225 * p[1] * p[0] * v * v * v * 1.0e-2


class SitePower(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, shear):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.shear = wp.from_torch(shear)
        ctx.power = wp.zeros((N_TURB, N_BIN), dtype=float)  # expect: torch_interop
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(power_matrix, dim=(N_TURB, N_BIN), inputs=[ctx.p, ctx.shear, V_W], outputs=[ctx.power])
        return wp.to_torch(ctx.power, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_power):
        ctx.tape.backward(grads={ctx.power: wp.from_torch(adj_power.contiguous())})
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone(), None


V_W = wp.array(V_BIN, dtype=float)


def _energy_np(p):
    e = 0.0
    for s in SITE_SHEAR:
        v = np.minimum(V_BIN[None, :] * s[:, None], V_RATED)
        e += float((HOURS[None, :] * 0.5 * 1.225 * p[1] * p[0] * v ** 3 * 1.0e-2).sum())
    return e


METERED = _energy_np(TRUE)


def annual_energy(p_t):
    hours = torch.tensor(np.broadcast_to(HOURS, (N_TURB, N_BIN)).copy(), dtype=torch.float32)
    powers = [SitePower.apply(p_t, torch.tensor(s, dtype=torch.float32)) for s in SITE_SHEAR]
    energy = sum(float((hours * pw).sum().detach()) for pw in powers)
    torch.autograd.backward(powers, grad_tensors=[hours, hours])
    return energy


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    energy = annual_energy(p_t)
    return energy, p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        e, de = evaluate(p)
        # Newton step on the scalar mismatch along the sensitivity direction
        p = p - (e - METERED) * de / float(de @ de)
        print(f"iter {it}: energy={e:.3f} GWh metered={METERED:.3f} cp={p[0]:.3f} area={p[1]:.3f}")
