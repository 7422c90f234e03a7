# correct: the Cholesky factor is constructed with its (2, 1) entry already divided, and the (2, 2) entry, zero in the constructor, is assigned exactly once.
"""Three-asset basket call: Monte Carlo price and its sensitivities to the
pairwise correlations (correlation deltas), with correlated normals drawn
through a Cholesky factor built per thread.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PATHS = 5000
T, R, STRIKE = 1.0, 0.03, 100.0
SPOT = wp.vec3(100.0, 95.0, 105.0)
VOL = wp.vec3(0.2, 0.3, 0.25)
_rng = np.random.default_rng(4)
Z = wp.array(_rng.standard_normal((N_PATHS, 3)).astype(np.float32), dtype=wp.vec3)


@wp.func
def cholesky_corr(r12: float, r13: float, r23: float):
    c11 = wp.sqrt(1.0 - r12 * r12)
    L = wp.mat33(1.0, 0.0, 0.0, r12, c11, 0.0, r13, (r23 - r12 * r13) / c11, 0.0)
    L[2, 2] = wp.sqrt(1.0 - L[2, 0] * L[2, 0] - L[2, 1] * L[2, 1])
    return L


@wp.kernel
def basket_payoff(z: wp.array(dtype=wp.vec3), rho: wp.array(dtype=float), price: wp.array(dtype=float)):
    p = wp.tid()
    L = cholesky_corr(rho[0], rho[1], rho[2])
    w = L * z[p]
    basket = float(0.0)
    for k in range(3):
        s = SPOT[k] * wp.exp((R - 0.5 * VOL[k] * VOL[k]) * T + VOL[k] * wp.sqrt(T) * w[k])
        basket += s / 3.0
    wp.atomic_add(price, 0, wp.exp(-R * T) * wp.max(basket - STRIKE, 0.0) / float(N_PATHS))


def evaluate(p):
    rho = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    price = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(basket_payoff, dim=N_PATHS, inputs=[Z, rho], outputs=[price])
    tape.backward(price)
    return float(price.numpy()[0]), rho.grad.numpy().copy()


PARAMS0 = np.array([0.5, 0.3, 0.4])
FD_EPS = 1e-2

if __name__ == "__main__":
    v, g = evaluate(PARAMS0)
    print(f"basket call {v:.4f}; d/d(rho12, rho13, rho23) = {g}")
