"""Fit a kiln's heating-rate law with warp.optim.Adam and a fresh tape per iteration: `tape.zero()`
runs between `tape.backward()` and `opt.step()`, so every step consumes a cleared gradient and the
parameters never move.  The zero() is the line to move (after the step)."""

import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N = 16
T = np.linspace(0.0, 3.0, N).astype(np.float32)
OBS = (900.0 * (1.0 - np.exp(-1.2 * T))).astype(np.float32)


@wp.kernel
def kiln(p: wp.array(dtype=float), t: wp.array(dtype=float), obs: wp.array(dtype=float),
         loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (p[0] * (1.0 - wp.exp(-p[1] * t[i])) - obs[i]) / 100.0
    wp.atomic_add(loss, 0, d * d)


params = wp.array([800.0, 1.0], dtype=float, requires_grad=True)
opt = Adam([params], lr=0.05)
t, obs = wp.array(T, dtype=float), wp.array(OBS, dtype=float)
for it in range(4):
    params.grad.zero_()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(kiln, dim=N, inputs=[params, t, obs], outputs=[loss])
    tape.backward(loss)
    tape.zero()  # expect: TW205
    opt.step([params.grad])
print("params", params.numpy())
