"""Tune spring stiffness so a dropped chain matches markers captured on video."""
import numpy as np
import warp as wp

NP = 8
STEPS = 25
DT = 0.02
REST = 0.25
GRAVITY = wp.vec2(0.0, -9.8)


@wp.kernel
def spring_forces(
    x: wp.array(dtype=wp.vec2),
    k: wp.array(dtype=float),
    rest: float,
    f: wp.array(dtype=wp.vec2),
):
    s = wp.tid()  # spring s joins particle s and s+1
    d = x[s + 1] - x[s]
    length = wp.length(d)
    n = d / length
    fs = k[0] * (length - rest) * n
    wp.atomic_add(f, s, fs)
    wp.atomic_sub(f, s + 1, fs)


@wp.kernel
def integrate(
    x: wp.array(dtype=wp.vec2),
    v: wp.array(dtype=wp.vec2),
    f: wp.array(dtype=wp.vec2),
    g: wp.vec2,
    dt: float,
    x_new: wp.array(dtype=wp.vec2),
    v_new: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    if i == 0:
        x_new[i] = x[i]
        v_new[i] = wp.vec2(0.0, 0.0)
        return
    vn = (1.0 - 0.5 * dt) * v[i] + dt * (f[i] + g)
    v_new[i] = vn
    x_new[i] = x[i] + dt * vn


@wp.kernel
def shape_loss(x: wp.array(dtype=wp.vec2), marker: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - marker[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


x0 = np.stack([REST * np.arange(NP), np.zeros(NP)], axis=1).astype(np.float32)
x = wp.array(x0, dtype=wp.vec2, requires_grad=True)
v = wp.zeros(NP, dtype=wp.vec2, requires_grad=True)
x_next = wp.zeros_like(x)
v_next = wp.zeros_like(v)
k = wp.array([60.0], dtype=float, requires_grad=True)
marker = wp.array(np.stack([0.8 * REST * np.arange(NP), -0.3 * (np.arange(NP) / NP) ** 1.5], axis=1).astype(np.float32), dtype=wp.vec2)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    for step in range(STEPS):
        f = wp.zeros(NP, dtype=wp.vec2, requires_grad=True)
        wp.launch(spring_forces, dim=NP - 1, inputs=[x, k, REST], outputs=[f])
        wp.launch(integrate, dim=NP, inputs=[x, v, f, GRAVITY, DT], outputs=[x_next, v_next])
        wp.copy(x, x_next)  # expect: overwrite
        wp.copy(v, v_next)
    wp.launch(shape_loss, dim=NP, inputs=[x, marker], outputs=[loss])

tape.backward(loss)
loss_value = float(loss.numpy()[0])
k_grad = float(k.grad.numpy()[0])
print("shape loss", loss_value, "dloss/dk", k_grad)
