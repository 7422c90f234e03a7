# correct: heat-source fit where the module with enable_backward=False only preprocesses measured data before the tape and monitors after backward
import numpy as np
import warp as wp

from _diagnostics import normalize_peak, total_heat

NX = NY = 14
STEPS = 10
KAPPA = 0.15


@wp.kernel
def heat_step(u: wp.array2d(dtype=float), power: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    c = u[i, j]
    n = u[wp.max(i - 1, 0), j] + u[wp.min(i + 1, nx - 1), j] + u[i, wp.max(j - 1, 0)] + u[i, wp.min(j + 1, ny - 1)]
    x = float(i) / float(nx) - power[1]
    y = float(j) / float(ny) - 0.5
    q = power[0] * wp.exp(-(x * x + y * y) / 0.02)
    out[i, j] = c + KAPPA * (n - 4.0 * c) + 0.1 * q - 0.05 * c * c


@wp.kernel
def misfit(u: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = u[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


xg, yg = np.meshgrid(np.arange(NX) / NX, np.arange(NY) / NY, indexing="ij")
raw_np = (3.0 * np.exp(-((xg - 0.35) ** 2 + (yg - 0.5) ** 2) / 0.05)).astype(np.float32)
raw = wp.array(raw_np, dtype=float)
obs = wp.zeros((NX, NY), dtype=float)
wp.launch(normalize_peak, dim=(NX, NY), inputs=[raw, 4.0], outputs=[obs])

power = wp.array([1.5, 0.5], dtype=float, requires_grad=True)  # strength, x position
loss = wp.zeros(1, dtype=float, requires_grad=True)
fields = [wp.zeros((NX, NY), dtype=float, requires_grad=True) for _ in range(STEPS + 1)]

tape = wp.Tape()
with tape:
    for t in range(STEPS):
        wp.launch(heat_step, dim=(NX, NY), inputs=[fields[t], power], outputs=[fields[t + 1]])
    wp.launch(misfit, dim=(NX, NY), inputs=[fields[STEPS], obs], outputs=[loss])
tape.backward(loss)

total = wp.zeros(1, dtype=float)
wp.launch(total_heat, dim=(NX, NY), inputs=[fields[STEPS]], outputs=[total])

loss_value = float(loss.numpy()[0])
power_grad = power.grad.numpy().copy()
print("loss", loss_value, "total heat", float(total.numpy()[0]), "d/dpower", power_grad)
