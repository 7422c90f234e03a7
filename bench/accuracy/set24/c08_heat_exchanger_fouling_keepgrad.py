# correct: the optimizer zeroes the gradient in place instead of setting it to None, so the Parameter keeps the .grad buffer Warp writes into.
"""Shell-and-tube exchanger fouling: clean U, asymptotic fouling resistance and fouling
time constant fitted to a year of overall heat-transfer-coefficient readings.

The parameters are a torch nn.Parameter that Warp reads (and writes the gradient of)
through wp.from_torch; torch.optim.Adam steps on the gradient Warp's tape produces.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

DAYS = np.linspace(0.0, 360.0, 19).astype(np.float32)
TRUE = np.array([1.25, 2.2, 0.9])             # U0 (kW/m^2K), Rf_inf (1e-4 m^2K/W), tau (100 d)
PARAMS0 = np.array([1.10, 1.6, 1.3])
rng = np.random.default_rng(2)


def _u_np(p, t):
    return 1.0 / (1.0 / p[0] + 0.1 * p[1] * (1.0 - np.exp(-t / (100.0 * p[2]))))


U_MEAS = (_u_np(TRUE, DAYS) * (1.0 + 0.005 * rng.standard_normal(DAYS.size))).astype(np.float32)
DAYS_W = wp.array(DAYS, dtype=float)
U_W = wp.array(U_MEAS, dtype=float)
N = DAYS.size


@wp.kernel
def fouling_sse(p: wp.array(dtype=float), days: wp.array(dtype=float), u_meas: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    i = wp.tid()
    rf = 0.1 * p[1] * (1.0 - wp.exp(-days[i] / (100.0 * p[2])))     # m^2K/kW
    u = 1.0 / (1.0 / p[0] + rf)
    r = (u - u_meas[i]) * 50.0
    wp.atomic_add(loss, 0, r * r / float(N))


def loss_at(p):
    pw = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(fouling_sse, dim=N, inputs=[pw, DAYS_W, U_W], outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    params = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    params_wp = wp.from_torch(params)               # shares data and .grad with the Parameter
    opt = torch.optim.Adam([params], lr=0.04)
    probe = None
    for it in range(n_steps):
        opt.zero_grad(set_to_none=False)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(fouling_sse, dim=N, inputs=[params_wp, DAYS_W, U_W], outputs=[loss])
        tape.backward(loss)
        if it == probe_step:
            used = params.grad.detach().clone() if params.grad is not None else torch.zeros_like(params)
            probe = (params.detach().numpy().astype(np.float64).copy(), used.numpy().astype(np.float64))
        opt.step()
        if probe_step is None and it % 10 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.5f} U0={params[0].item():.3f} Rf={params[1].item():.3f} tau={100 * params[2].item():.0f} d")
    return params.detach().numpy(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(3)
    for j in range(3):
        e = np.zeros(3)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(40)
    print("fitted:", p, "loss:", loss_at(p))
