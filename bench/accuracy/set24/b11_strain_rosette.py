"""Aluminium coupon strain rosettes (0/45/90): Young's modulus and Poisson ratio fitted to
rosette readings on two specimens under known plane-stress states.

Stresses and strains are wp.vec3 arrays; the rosette model keeps one preallocated strain
buffer and a torch.autograd.Function hands its result to torch.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

N_SITE = 6
TRUE = np.array([0.69, 3.3])                 # E / 100 GPa, Poisson ratio x 10
PARAMS0 = np.array([0.80, 2.6])
rng = np.random.default_rng(17)
STRESS = [np.stack([np.linspace(40, 120, N_SITE), np.linspace(-20, 30, N_SITE), np.linspace(10, 35, N_SITE)], 1),
          np.stack([np.linspace(-60, 10, N_SITE), np.linspace(50, 90, N_SITE), np.linspace(-25, 5, N_SITE)], 1)]
STRESS = [s.astype(np.float32) for s in STRESS]          # sigma_x, sigma_y, tau_xy in MPa


def _rosette_np(p, s):
    e, nu = 100.0 * p[0], 0.1 * p[1]
    ex = (s[:, 0] - nu * s[:, 1]) * 1000.0 / e
    ey = (s[:, 1] - nu * s[:, 0]) * 1000.0 / e
    gxy = 2.0 * (1.0 + nu) * s[:, 2] * 1000.0 / e
    return np.stack([ex, 0.5 * (ex + ey) + 0.5 * gxy, ey], 1)


MEAS = [(_rosette_np(TRUE, s) + 3.0 * rng.standard_normal((N_SITE, 3))).astype(np.float32) for s in STRESS]


@wp.kernel
def rosette_strain(p: wp.array(dtype=float), stress: wp.array(dtype=wp.vec3), strain: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = stress[i]
    e = 100.0 * p[0]
    nu = 0.1 * p[1]
    ex = (s[0] - nu * s[1]) * 1000.0 / e                  # microstrain
    ey = (s[1] - nu * s[0]) * 1000.0 / e
    gxy = 2.0 * (1.0 + nu) * s[2] * 1000.0 / e
    strain[i] = wp.vec3(ex, 0.5 * (ex + ey) + 0.5 * gxy, ey)


class RosetteModel:
    def __init__(self, n_sites):
        self.n = n_sites
        self.strain = wp.zeros(n_sites, dtype=wp.vec3, requires_grad=True)


class RosetteStrain(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, stress, model):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.stress = wp.from_torch(stress, dtype=wp.vec3)
        ctx.strain = model.strain
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(rosette_strain, dim=model.n, inputs=[ctx.p, ctx.stress], outputs=[ctx.strain])
        return wp.to_torch(ctx.strain, requires_grad=False)  # expect: torch_interop

    @staticmethod
    def backward(ctx, adj_strain):
        ctx.strain.grad.assign(wp.from_torch(adj_strain.contiguous(), dtype=wp.vec3))
        ctx.tape.backward()
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone(), None, None


MODEL = RosetteModel(N_SITE)


def rosette_loss(p_t):
    preds = [RosetteStrain.apply(p_t, torch.from_numpy(s), MODEL) for s in STRESS]
    return sum((((pr - torch.from_numpy(m)) / 100.0) ** 2).mean() for pr, m in zip(preds, MEAS))


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = rosette_loss(p_t)
    loss.backward()
    return float(loss.detach()), p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.03)
    for it in range(40):
        opt.zero_grad()
        loss = rosette_loss(p_t)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.4f} E={100 * p_t[0].item():.1f} GPa nu={0.1 * p_t[1].item():.3f}")
