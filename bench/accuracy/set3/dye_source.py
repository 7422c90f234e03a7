"""Locate and size a continuous dye source so the diffused concentration matches a sensor snapshot."""
import numpy as np
import warp as wp

from _fastops import diffuse

NX = NY = 16
STEPS = 12
ALPHA = 0.2


@wp.kernel
def inject(u: wp.array2d(dtype=float), src: wp.array(dtype=float), dt: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = float(i) / float(u.shape[0])
    y = float(j) / float(u.shape[1])
    dx = x - src[1]
    dy = y - src[2]
    out[i, j] = u[i, j] + dt * src[0] * wp.exp(-(dx * dx + dy * dy) / 0.01)


@wp.kernel
def snapshot_loss(u: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = u[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


def simulate(src, obs, loss):
    u = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    for _ in range(STEPS):
        tmp = wp.zeros((NX, NY), dtype=float, requires_grad=True)
        wp.launch(diffuse, dim=(NX, NY), inputs=[u, ALPHA], outputs=[tmp])
        u = wp.zeros((NX, NY), dtype=float, requires_grad=True)
        wp.launch(inject, dim=(NX, NY), inputs=[tmp, src, 0.1], outputs=[u])
    wp.launch(snapshot_loss, dim=(NX, NY), inputs=[u, obs], outputs=[loss])
    return u


xg, yg = np.meshgrid(np.arange(NX) / NX, np.arange(NY) / NY, indexing="ij")
obs_np = (0.3 * np.exp(-((xg - 0.6) ** 2 + (yg - 0.4) ** 2) / 0.03)).astype(np.float32)
obs = wp.array(obs_np, dtype=float)
src = wp.array([1.0, 0.5, 0.5], dtype=float, requires_grad=True)  # amplitude, x, y
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    u_final = simulate(src, obs, loss)
tape.backward(loss)

loss_value = float(loss.numpy()[0])
src_grad = src.grad.numpy().copy()
print("loss", loss_value, "d/d[amp, x, y]", src_grad)
