"""Lumen maintenance of street-light LED modules (LM-80 style test).

Junction temperature from ambient and electrical power (helper _led.py),
then exponential lumen depreciation with an Arrhenius decay rate:
L(t) = exp(-A exp(-Ea / (k Tj)) t). Fits the thermal resistance, log A and
the activation energy to the lumen fractions measured at test end.
"""
import numpy as np
import warp as wp

from _led import junction_temperature

wp.config.quiet = True

K_B = 8.617e-5  # eV/K
TA = np.array([25.0, 25.0, 55.0, 55.0, 85.0, 85.0, 45.0, 65.0], dtype=np.float32)
POWER = np.array([1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.5, 1.5], dtype=np.float32)  # W
HOURS = np.array([10e3, 10e3, 8e3, 8e3, 6e3, 6e3, 9e3, 7e3], dtype=np.float32)
LUMEN_OBS = np.array([0.975, 0.962, 0.952, 0.928, 0.915, 0.869, 0.951, 0.917], dtype=np.float32)


@wp.kernel
def lumen_misfit(tj: wp.array(dtype=float), hours: wp.array(dtype=float), p: wp.array(dtype=float),
                 obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    rate = wp.exp(p[1] - p[2] / (K_B * tj[i]))
    lum = wp.exp(-rate * hours[i])
    r = (lum - obs[i]) * 100.0
    wp.atomic_add(loss, 0, r * r / 8.0)


ta_d, pw_d, h_d, obs_d = (wp.array(a, dtype=float) for a in (TA, POWER, HOURS, LUMEN_OBS))
PARAMS0 = [0.12, 2.0, 0.55]  # Rth (100 K/W), log A (log 1/h), Ea (eV)
FD_EPS = [1e-4, 1e-3, 1e-4]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        tj = junction_temperature(ta_d, pw_d, params)
        wp.launch(lumen_misfit, dim=len(TA), inputs=[tj, h_d, params, obs_d], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"lumen misfit {l:.4f}  grad Rth/logA/Ea = {np.round(g, 4)}")
