"""Counterflow plate heat exchanger: fit the clean UA and the fouling resistance
to commissioning tests (effectiveness-NTU); two tests ran balanced (Cr = 1)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")


@wp.kernel
def duty_residual(p: wp.array(dtype=float), c_min: wp.array(dtype=float), cr: wp.array(dtype=float),
                  dt_max: wp.array(dtype=float), q_obs: wp.array(dtype=float), res: wp.array(dtype=float)):
    i = wp.tid()
    ua = 1.0 / (1.0 / p[0] + p[1])
    ntu = ua / c_min[i]
    x = ntu * (1.0 - cr[i])
    eps_g = (1.0 - wp.exp(-x)) / (1.0 - cr[i] * wp.exp(-x))  # expect: nonfinite
    eps_b = ntu / (1.0 + ntu)
    eps = wp.where(cr[i] < 0.999, eps_g, eps_b)
    res[i] = (eps * c_min[i] * dt_max[i] - q_obs[i]) / 10.0


C_MIN = np.array([4.2, 6.0, 8.4, 5.0, 7.5, 3.6, 6.6, 9.0], dtype=np.float32)        # kW/K
CR = np.array([0.55, 1.0, 0.72, 0.35, 1.0, 0.9, 0.6, 0.8], dtype=np.float32)
DT_MAX = np.array([45.0, 38.0, 52.0, 40.0, 30.0, 48.0, 35.0, 42.0], dtype=np.float32)  # K


def eps_np(ntu, cr):
    out = ntu / (1 + ntu)
    m = cr < 0.999
    x = ntu[m] * (1 - cr[m])
    out[m] = (1 - np.exp(-x)) / (1 - cr[m] * np.exp(-x))
    return out


_ua = 1.0 / (1.0 / 14.0 + 0.012)
Q_OBS = (eps_np(_ua / C_MIN.astype(np.float64), CR.astype(np.float64)) * C_MIN * DT_MAX * (1 + 0.01 * np.sin(np.arange(8))))
W = [wp.array(a.astype(np.float32), dtype=float) for a in (C_MIN, CR, DT_MAX, Q_OBS)]
PARAMS0 = np.array([12.0, 0.02])
FD_EPS = np.array([1e-3, 1e-4])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    res = wp.zeros(8, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(duty_residual, dim=8, inputs=[p_w] + W, outputs=[res])
    r = res.numpy().astype(np.float64)
    tape.backward(grads={res: wp.array((2.0 * r).astype(np.float32), dtype=float)})
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"duty misfit {L:.5f}; grad [UA_clean, R_fouling] = {g}")
