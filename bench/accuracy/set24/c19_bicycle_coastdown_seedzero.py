# correct: the misfit leaf's .grad (the Warp tape's seed) is zeroed with the parameter gradients every step, so torch does not accumulate the seed to 2, 3, ...
"""Bicycle coast-down test: rolling-resistance coefficient and drag area fitted to the
speed trace of an unpowered roll-out, with a torch prior on Crr.

The Warp misfit is written into a torch leaf (wp.from_torch), so torch's backward of
`misfit + prior` seeds the Warp tape through that leaf's .grad; torch.optim.SGD steps.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

G, RHO, MASS, V0 = 9.81, 1.2, 85.0, 12.0
T = np.linspace(2.0, 40.0, 20).astype(np.float32)                      # s
TRUE = np.array([0.55, 3.4])                                            # Crr x 100, CdA x 10 m^2
PARAMS0 = np.array([0.80, 2.6])
CRR_PRIOR, CRR_SIG = 0.6, 0.2
N = T.size


def _speed_np(p, t):
    a = 0.01 * p[0] * G
    b = 0.5 * RHO * 0.1 * p[1] / MASS
    s = np.sqrt(a * b)
    return np.sqrt(a / b) * np.tan(np.arctan(V0 * np.sqrt(b / a)) - s * t)


rng = np.random.default_rng(53)
V_MEAS = (_speed_np(TRUE, T) + 0.05 * rng.standard_normal(N)).astype(np.float32)
T_W = wp.array(T, dtype=float)
V_W = wp.array(V_MEAS, dtype=float)


@wp.kernel
def coast_sse(p: wp.array(dtype=float), t: wp.array(dtype=float), v_meas: wp.array(dtype=float),
              loss: wp.array(dtype=float)):
    i = wp.tid()
    a = 0.01 * p[0] * G
    b = 0.5 * RHO * 0.1 * p[1] / MASS
    v = wp.sqrt(a / b) * wp.tan(wp.atan(V0 * wp.sqrt(b / a)) - wp.sqrt(a * b) * t[i])
    r = v - v_meas[i]
    wp.atomic_add(loss, 0, r * r / float(N))


def prior(params):
    return ((params[0] - CRR_PRIOR) / CRR_SIG) ** 2


def loss_at(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(coast_sse, dim=N, inputs=[wp.array(np.asarray(p, dtype=np.float32), dtype=float), T_W, V_W],
              outputs=[loss])
    return float(loss.numpy()[0]) + float(prior(torch.tensor(np.asarray(p, dtype=np.float32))))


def run_fit(n_steps, probe_step=None):
    params = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    params_wp = wp.from_torch(params)                  # shares data and .grad
    misfit = torch.zeros(1, requires_grad=True)
    misfit_wp = wp.from_torch(misfit)                  # Warp writes the misfit here; its .grad seeds the tape
    opt = torch.optim.SGD([params], lr=0.01, momentum=0.3)
    probe = None
    for it in range(n_steps):
        opt.zero_grad(set_to_none=False)
        misfit.grad.zero_()
        misfit_wp.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(coast_sse, dim=N, inputs=[params_wp, T_W, V_W], outputs=[misfit_wp])
        total = misfit.sum() + prior(params)
        total.backward()
        tape.backward()
        if it == probe_step:
            probe = (params.detach().numpy().astype(np.float64).copy(), params.grad.numpy().astype(np.float64).copy())
        opt.step()
        if probe_step is None and it % 20 == 0:
            print(f"iter {it}: total={total.item():.4f} Crr={0.01 * params[0].item():.4f} CdA={0.1 * params[1].item():.3f} m^2")
    return params.detach().numpy().copy(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(2)
    for j in range(2):
        e = np.zeros(2)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(80)
    print("fitted:", p, "objective:", loss_at(p))
