"""A district-heating network's substation temperatures over `HOURS = 10` hourly steps (`mix_step`, each
hour mixing the neighbours' water, settling from a cold start): a trajectory the program reports hour
by hour, not an iteration to convergence.  A kernel named `*_step` whose loop runs a trajectory's
length is a time step, and its settling is the model's, not a truncated solve."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 8
MIX = 0.85
HOURS = 10
_rng = np.random.default_rng(5)
_W = _rng.uniform(0.1, 1.0, (N, N))
np.fill_diagonal(_W, 0.0)
W = (_W / _W.sum(axis=1, keepdims=True)).astype(np.float32)


@wp.kernel
def mix_step(w: wp.array2d(dtype=float), p: wp.array(dtype=float), t: wp.array(dtype=float),
             t_new: wp.array(dtype=float)):
    i = wp.tid()
    inflow = float(0.0)
    for j in range(N):
        inflow += w[i, j] * t[j]
    t_new[i] = ((1.0 - MIX) * p[0] + MIX * inflow) * wp.exp(-0.01 * p[1])


@wp.kernel
def misfit(t: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - target
    wp.atomic_add(loss, 0, d * d)


def converged(p):
    f = np.exp(-0.01 * p[1])
    return np.linalg.solve(np.eye(N) - MIX * f * W, (1.0 - MIX) * p[0] * f * np.ones(N))


if __name__ == "__main__":
    p = wp.array([90.0, 3.0], dtype=float, requires_grad=True)
    w = wp.array(W, dtype=float)
    temps = [wp.full(N, 40.0, dtype=float, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(HOURS):
            temps.append(wp.zeros(N, dtype=float, requires_grad=True))
            wp.launch(mix_step, dim=N, inputs=[w, p, temps[k]], outputs=[temps[k + 1]])
        wp.launch(misfit, dim=N, inputs=[temps[-1], 70.0], outputs=[loss])
    tape.backward(loss)
    print("hourly", [round(float(t.numpy().mean()), 2) for t in temps], "gradient", p.grad.numpy())
