"""Constant-elasticity-of-variance (CEV) model: Monte Carlo put on a
low-priced stock with absorption at zero (bankruptcy), and the price
sensitivities to the volatility scale sigma and the elasticity beta.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PATHS = 4000
N_STEPS = 50
T, R, S0, STRIKE = 2.0, 0.02, 10.0, 10.0
DT = T / N_STEPS
_rng = np.random.default_rng(12)
Z = wp.array(_rng.standard_normal((N_STEPS, N_PATHS)).astype(np.float32), dtype=float)


@wp.kernel
def cev_step(s_in: wp.array(dtype=float), z: wp.array2d(dtype=float), n: int, prm: wp.array(dtype=float),
             s_out: wp.array(dtype=float)):
    i = wp.tid()
    s = s_in[i]
    vol = prm[0] * wp.pow(s, prm[1])  # expect: nonfinite
    s_out[i] = wp.max(s + R * s * DT + vol * wp.sqrt(DT) * z[n, i], 0.0)


@wp.kernel
def put_value(s: wp.array(dtype=float), price: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(price, 0, wp.exp(-R * T) * wp.max(STRIKE - s[i], 0.0) / float(N_PATHS))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    s = wp.full(N_PATHS, S0, dtype=float, requires_grad=True)
    price = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for n in range(N_STEPS):
            s_new = wp.empty_like(s)
            wp.launch(cev_step, dim=N_PATHS, inputs=[s, Z, n, prm], outputs=[s_new])
            s = s_new
        wp.launch(put_value, dim=N_PATHS, inputs=[s], outputs=[price])
    REPORT["absorbed"] = int((s.numpy() == 0.0).sum())
    tape.backward(price)
    return float(price.numpy()[0]), prm.grad.numpy().copy()


REPORT = {}
PARAMS0 = np.array([1.8, 0.5])

if __name__ == "__main__":
    v, g = evaluate(PARAMS0)
    print(f"CEV put {v:.4f}, {REPORT['absorbed']} of {N_PATHS} paths absorbed; d/d(sigma, beta) = {g}")
