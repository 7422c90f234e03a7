"""Weibull dissolution profile of an immediate-release tablet; weighted least squares on the host, seeded into the tape."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_T = 14
TIMES = np.linspace(2.0, 60.0, N_T).astype(np.float32)  # minutes
OBS = (100.0 * (1.0 - np.exp(-(TIMES / 18.0) ** 1.3))).astype(np.float64)
WEIGHT = np.where(TIMES < 20.0, 4.0, 1.0)  # pharmacopoeia early points weigh more
PARAMS0 = [15.0, 1.1]  # scale time (min), shape


@wp.kernel
def weibull(p: wp.array(dtype=float), t: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = 100.0 * (1.0 - wp.exp(-wp.pow(t[i] / p[0], p[1])))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    released = wp.zeros(N_T, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(weibull, dim=N_T, inputs=[params, wp.array(TIMES, dtype=float)], outputs=[released])
    resid = (released.numpy().astype(np.float64) - OBS) / 10.0
    loss = float(np.sum(WEIGHT * resid ** 2) / N_T)
    seed = 2.0 * resid / 10.0 / N_T  # expect: seeding
    tape.backward(grads={released: wp.array(seed.astype(np.float32), dtype=float)})
    return loss, params.grad.numpy().copy()


FD_EPS = [1e-2, 1e-3]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.1 * g / (1.0 + np.linalg.norm(g))
    print("dissolution loss", loss, "params", p)
