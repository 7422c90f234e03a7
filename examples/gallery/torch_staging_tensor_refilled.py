"""Hourly weather frames for a PV model, staged in one PyTorch tensor that a logger refills every hour and
wrapped by a Warp layer without a copy: the day's losses are summed on one tape before one backward, so
every hour's adjoint replays with the last hour's weather (Warp sees no write: PyTorch made it)."""

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
N_PANEL, N_HOUR = 4, 5
rng = np.random.default_rng(3)
FRAMES = rng.uniform([200.0, 10.0], [900.0, 30.0], size=(N_HOUR, N_PANEL, 2)).astype(np.float32)
MEASURED = wp.array(rng.uniform(20.0, 120.0, size=N_HOUR * N_PANEL).astype(np.float32))


@wp.kernel
def panel_error(eff: wp.array(dtype=float), wx: wp.array(dtype=wp.vec2), measured: wp.array(dtype=float),
                hour: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    w = wx[i]
    power = 0.1 * eff[0] * w[0] * (1.0 - 0.004 * (w[1] - 25.0))
    r = power - measured[hour * 4 + i]
    wp.atomic_add(loss, 0, r * r)


staging = torch.empty((N_PANEL, 2), dtype=torch.float32)  # the logger writes each frame here
eff = wp.array([0.18], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
for hour in range(N_HOUR):
    staging.copy_(torch.from_numpy(FRAMES[hour]))
    wx = wp.from_torch(staging, dtype=wp.vec2)  # expect: TW106
    with tape:
        wp.launch(panel_error, dim=N_PANEL, inputs=[eff, wx, MEASURED, hour], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "d loss / d eff", eff.grad.numpy())
