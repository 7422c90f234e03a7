"""RC snubber characterisation: resistance and capacitance from two scope captures
(charging through R, then discharging into a known load), with a torch prior from the
component nameplates.

The capture misfit is computed on a Warp tape; the nameplate prior is a torch term; the
two gradients are combined on the torch parameter that torch.optim.Adam steps.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

V_S, R_LOAD = 12.0, 4.7                                # V, kOhm
T = np.linspace(0.1, 8.0, 20).astype(np.float32)       # ms
NOMINAL = torch.tensor([2.2, 1.0])                     # kOhm, uF
TOL = torch.tensor([0.22, 0.2])
LAM = 0.5
TRUE = np.array([2.55, 1.22])
PARAMS0 = np.array([2.0, 0.8])
N = T.size


def _capture_np(p):
    tau_c = p[0] * p[1]
    tau_d = p[0] * R_LOAD / (p[0] + R_LOAD) * p[1]
    return V_S * (1.0 - np.exp(-T / tau_c)), V_S * np.exp(-T / tau_d)


rng = np.random.default_rng(9)
V_CHG, V_DIS = [(v + 0.02 * rng.standard_normal(N)).astype(np.float32) for v in _capture_np(TRUE)]
T_W = wp.array(T, dtype=float)
CHG_W = wp.array(V_CHG, dtype=float)
DIS_W = wp.array(V_DIS, dtype=float)


@wp.kernel
def capture_sse(p: wp.array(dtype=float), t: wp.array(dtype=float), v_chg: wp.array(dtype=float),
                v_dis: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    tau_c = p[0] * p[1]
    tau_d = p[0] * R_LOAD / (p[0] + R_LOAD) * p[1]
    r1 = V_S * (1.0 - wp.exp(-t[i] / tau_c)) - v_chg[i]
    r2 = V_S * wp.exp(-t[i] / tau_d) - v_dis[i]
    wp.atomic_add(loss, 0, (r1 * r1 + r2 * r2) / float(N))


def objective_and_grad(params):
    """Total objective at the torch leaf ``params``; leaves the full gradient in params.grad."""
    params_wp = wp.from_torch(params.detach(), requires_grad=True)
    misfit = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(capture_sse, dim=N, inputs=[params_wp, T_W, CHG_W, DIS_W], outputs=[misfit])
    prior = LAM * (((params - NOMINAL) / TOL) ** 2).sum()
    prior.backward()
    tape.backward(misfit)
    params.grad = wp.to_torch(params_wp.grad, requires_grad=False)  # expect: torch_interop
    return float(misfit.numpy()[0]) + float(prior.detach())


def evaluate(p):
    params = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = objective_and_grad(params)
    return loss, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    params = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([params], lr=0.03)
    for it in range(50):
        opt.zero_grad()
        loss = objective_and_grad(params)
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: objective={loss:.4f} R={params[0].item():.3f} kOhm C={params[1].item():.3f} uF")
