"""Arrhenius rate constants for two furnace runs kept in one table with retain_grad=True (one row per run, to
inspect d loss / d k): each run's launch assigns its own row (``k[run, j]``), so no element has two writers
and no gradient is received twice."""

import numpy as np
import warp as wp

wp.config.quiet = True

LOG_A = np.array([17.2, 16.1, 18.0, 15.4], dtype=np.float32)
TEMPS = (650.0, 670.0)


@wp.kernel
def arrhenius(log_a: wp.array(dtype=float), ea: wp.array(dtype=float), temp: float, run: int,
              k: wp.array2d(dtype=float)):
    j = wp.tid()
    k[run, j] = wp.exp(log_a[j] - ea[j] / (8.314e-3 * temp))


@wp.kernel
def total_rate(k: wp.array2d(dtype=float), run: int, rate: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(rate, 0, k[run, j] * (1.0 + float(run)))


ea = wp.array([118.0, 112.0, 124.0, 104.0], dtype=float, requires_grad=True)
log_a = wp.array(LOG_A)
k = wp.zeros((len(TEMPS), len(LOG_A)), dtype=float, requires_grad=True, retain_grad=True)
rate = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for run, temp in enumerate(TEMPS):
        wp.launch(arrhenius, dim=len(LOG_A), inputs=[log_a, ea, temp, run], outputs=[k])
        wp.launch(total_rate, dim=len(LOG_A), inputs=[k, run], outputs=[rate])
tape.backward(rate)
print("d rate / d Ea", ea.grad.numpy(), "d rate / d k", k.grad.numpy())
