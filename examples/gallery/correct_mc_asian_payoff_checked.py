"""Arithmetic-average Asian call by Monte Carlo against a geometric-average control variate, vega and rho by
AD: each of 3,000 paths ends in two clamped payoffs, so a finite difference of the summed price crosses the
kinks of some paths at any step (its one-sided slopes differ by about as much as the AD and central values
do).  The per-launch check must call such samples non-smooth, never a failure of a correct adjoint.
tapewatch-test: --check-launches"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_PATHS = 3000
N_FIX = 12
S0, STRIKE, T = 100.0, 100.0, 1.0
Z = wp.array(np.random.default_rng(17).standard_normal((N_PATHS, N_FIX)).astype(np.float32), dtype=float)


@wp.kernel
def asian(z: wp.array2d(dtype=float), mkt: wp.array(dtype=float), price: wp.array(dtype=float)):
    p = wp.tid()
    sig = mkt[0]
    r = mkt[1]
    dt = T / float(N_FIX)
    x = wp.log(S0)
    avg = float(0.0)
    logsum = float(0.0)
    for k in range(N_FIX):
        x = x + (r - 0.5 * sig * sig) * dt + sig * wp.sqrt(dt) * z[p, k]
        avg = avg + wp.exp(x) / float(N_FIX)
        logsum = logsum + x
    arith = wp.max(avg - STRIKE, 0.0)
    geo = wp.max(wp.exp(logsum / float(N_FIX)) - STRIKE, 0.0)
    wp.atomic_add(price, 0, wp.exp(-r * T) * (arith - geo) / float(N_PATHS))


mkt = wp.array([0.25, 0.04], dtype=float, requires_grad=True)
price = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(asian, dim=N_PATHS, inputs=[Z, mkt], outputs=[price])
tape.backward(price)
print(float(price.numpy()[0]), mkt.grad.numpy())
