"""Heston stochastic-volatility call price and its sensitivity to the variance
process (mean reversion kappa, long-run variance theta, vol-of-vol xi).

Monte Carlo with fixed correlated normals (common random numbers) and an
Euler scheme whose variance is floored where it is read; the path state lives
in two pairs of preallocated buffers
that alternate between steps.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PATHS = 4000
N_STEPS = 24
T = 0.5
DT = T / N_STEPS
S0, K, R, RHO, V0 = 100.0, 100.0, 0.02, -0.7, 0.05
_rng = np.random.default_rng(7)
_z1 = _rng.standard_normal((N_STEPS, N_PATHS)).astype(np.float32)
_z2 = (RHO * _z1 + np.sqrt(1 - RHO**2) * _rng.standard_normal((N_STEPS, N_PATHS))).astype(np.float32)
Z1 = wp.array(_z1, dtype=float)
Z2 = wp.array(_z2, dtype=float)


@wp.kernel
def euler_step(x: wp.array(dtype=float), v: wp.array(dtype=float), prm: wp.array(dtype=float),
               z1: wp.array2d(dtype=float), z2: wp.array2d(dtype=float), n: int,
               x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    vp = wp.max(v[i], 1.0e-4)
    sq = wp.sqrt(vp * DT)
    x_out[i] = x[i] + (R - 0.5 * vp) * DT + sq * z1[n, i]
    v_out[i] = v[i] + prm[0] * (prm[1] - vp) * DT + prm[2] * sq * z2[n, i]


@wp.kernel
def call_payoff(x: wp.array(dtype=float), price: wp.array(dtype=float)):
    i = wp.tid()
    pay = wp.max(wp.exp(x[i]) - K, 0.0)
    wp.atomic_add(price, 0, wp.exp(-R * T) * pay / float(N_PATHS))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    xa = wp.full(N_PATHS, float(np.log(S0)), dtype=float, requires_grad=True)
    va = wp.full(N_PATHS, V0, dtype=float, requires_grad=True)
    xb = wp.zeros_like(xa)
    vb = wp.zeros_like(va)
    price = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for n in range(N_STEPS):
            wp.launch(euler_step, dim=N_PATHS, inputs=[xa, va, prm, Z1, Z2, n], outputs=[xb, vb])
            xa, xb = xb, xa
            va, vb = vb, va  # expect: overwrite
        wp.launch(call_payoff, dim=N_PATHS, inputs=[xa], outputs=[price])
    tape.backward(price)
    return float(price.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([1.5, 0.06, 0.3])
FD_EPS = np.array([1e-2, 1e-3, 1e-2])

if __name__ == "__main__":
    c, g = evaluate(PARAMS0)
    print(f"Heston call {c:.4f}; d/d(kappa, theta, xi) = {g}")
