"""Glider trim with gradient clipping, done right: the clipped copy goes to the optimizer and the
parameter's own gradient is zeroed after the step (the copy is a fresh clone every step anyway)."""

import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True


@wp.kernel
def glide_ratio(trim: wp.array(dtype=float), speeds: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    cl = 0.3 + 4.0 * trim[0]
    cd = 0.02 + 0.05 * cl * cl + 0.01 * trim[1] * trim[1]
    v = speeds[i]
    wp.atomic_add(loss, 0, (cd / cl) * v * v * 0.01)


@wp.kernel
def clip(g: wp.array(dtype=float), limit: float):
    i = wp.tid()
    g[i] = wp.clamp(g[i], -limit, limit)  # note: TW104


trim = wp.array([0.05, 0.3], dtype=float, requires_grad=True)
speeds = wp.array(np.linspace(8.0, 14.0, 6).astype(np.float32), dtype=float)
opt = warp.optim.SGD([trim], lr=0.01)
for step in range(4):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(glide_ratio, dim=6, inputs=[trim, speeds], outputs=[loss])
    tape.backward(loss)
    g = wp.clone(trim.grad)
    wp.launch(clip, dim=2, inputs=[g, 5.0])
    opt.step([g])  # note: TW104
    g.zero_()
    trim.grad.zero_()
print(trim.numpy())
