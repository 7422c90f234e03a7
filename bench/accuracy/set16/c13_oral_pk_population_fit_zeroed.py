# correct: a fresh tape every iteration, and the parameter gradient is zeroed after each descent step
"""Oral one-compartment pharmacokinetics of an antiepileptic in eight
volunteers: fit clearance, volume and absorption rate (log scale) to plasma
concentrations by gradient descent on the log-concentration residuals.

C(t) = D ka / (V (ka - ke)) (exp(-ke t) - exp(-ka t)),  ke = CL / V
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SUBJ = 8
T_H = np.array([0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 24.0], dtype=np.float32)
N_T = T_H.size
DOSE = np.array([200, 200, 300, 300, 400, 400, 500, 500], dtype=np.float32)  # mg
WEIGHT = np.linspace(58.0, 96.0, N_SUBJ).astype(np.float32)


@wp.kernel
def log_residuals(theta: wp.array(dtype=float), dose: wp.array(dtype=float), wt: wp.array(dtype=float),
                  t: wp.array(dtype=float), log_obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    s, k = wp.tid()
    scale = wt[s] / 70.0
    cl = wp.exp(theta[0]) * wp.pow(scale, 0.75)
    v = wp.exp(theta[1]) * scale
    ka = wp.exp(theta[2])
    ke = cl / v
    c = dose[s] * ka / (v * (ka - ke)) * (wp.exp(-ke * t[k]) - wp.exp(-ka * t[k]))
    d = wp.log(c) - log_obs[s, k]
    wp.atomic_add(loss, 0, d * d / float(N_SUBJ * N_T))


@wp.kernel
def descend(theta: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    theta[i] = theta[i] - lr * grad[i]


def _log_obs():
    scale = WEIGHT / 70.0
    cl, v, ka = 3.2 * scale**0.75, 48.0 * scale, 1.3
    ke = cl / v
    c = DOSE[:, None] * ka / (v[:, None] * (ka - ke[:, None])) * (np.exp(-ke[:, None] * T_H) - np.exp(-ka * T_H))
    return (np.log(c) + 0.08 * np.random.default_rng(12).standard_normal(c.shape)).astype(np.float32)


DATA = [wp.array(DOSE, dtype=float), wp.array(WEIGHT, dtype=float), wp.array(T_H, dtype=float),
        wp.array(_log_obs(), dtype=float)]


def objective(th):
    theta = wp.array(np.asarray(th, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(log_residuals, dim=(N_SUBJ, N_T), inputs=[theta] + DATA, outputs=[loss])
    return float(loss.numpy()[0])


def train(n_iter, lr=0.05, report_at=None):
    theta = wp.array(np.log([2.0, 35.0, 0.8]).astype(np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    seen = None
    for it in range(n_iter):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(log_residuals, dim=(N_SUBJ, N_T), inputs=[theta] + DATA, outputs=[loss])
        tape.backward(loss)
        if it == report_at:
            seen = (theta.numpy().copy(), theta.grad.numpy().copy())
        wp.launch(descend, dim=3, inputs=[theta, theta.grad, lr])
        theta.grad.zero_()
    return theta, seen


def verify():
    _, (th, g) = train(7, report_at=5)
    fd = []
    for k in range(3):
        hp, hm = th.astype(np.float64).copy(), th.astype(np.float64).copy()
        hp[k] += 1e-3
        hm[k] -= 1e-3
        fd.append((objective(hp) - objective(hm)) / 2e-3)
    return g, np.array(fd)


if __name__ == "__main__":
    theta, _ = train(150)
    cl, v, ka = np.exp(theta.numpy())
    print(f"CL={cl:.2f} L/h  V={v:.1f} L  ka={ka:.2f} 1/h  (log-residual MSE {objective(theta.numpy()):.4f})")
