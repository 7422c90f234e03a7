"""Aim a spray nozzle: droplets with quadratic drag should land near a row of targets."""
import numpy as np
import warp as wp

STEPS = 30
DT = 0.03
DRAG = 0.3


@wp.kernel
def launch_droplets(
    nozzle_vel: wp.array(dtype=wp.vec3),
    spread: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    v_out[i] = nozzle_vel[0] + spread[i]


@wp.kernel
def fly(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    dt: float,
    drag: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    vi = v[i]
    a = wp.vec3(0.0, -9.81, 0.0) - drag * wp.length(vi) * vi
    vn = vi + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), err: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(err, 0, wp.dot(d, d))


def save_preview(points, path=None):
    # stand-in for the viewer export
    return float(points[:, 1].min())


n = 6
spread_np = np.stack([np.linspace(-0.5, 0.5, n), np.linspace(0.0, 0.6, n), np.zeros(n)], axis=1).astype(np.float32)
spread = wp.array(spread_np, dtype=wp.vec3)
targets = wp.array(np.stack([np.linspace(1.0, 2.0, n), np.zeros(n), np.zeros(n)], axis=1).astype(np.float32), dtype=wp.vec3)
nozzle_vel = wp.array([wp.vec3(2.0, 2.5, 0.0)], dtype=wp.vec3, requires_grad=True)

xs = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(STEPS + 1)]
vs = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(STEPS + 1)]
err = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(launch_droplets, dim=n, inputs=[nozzle_vel, spread], outputs=[vs[0]])
    for t in range(STEPS):
        wp.launch(fly, dim=n, inputs=[xs[t], vs[t], DT, DRAG], outputs=[xs[t + 1], vs[t + 1]])
    wp.launch(landing_error, dim=n, inputs=[xs[STEPS], targets], outputs=[err])

frame = xs[STEPS].numpy()
frame[:, 1] = np.maximum(frame[:, 1], 0.0)  # expect: untaped_write
lowest = save_preview(frame)

tape.backward(err)
err_value = float(err.numpy()[0])
nozzle_grad = nozzle_vel.grad.numpy()[0].copy()
print("landing error", err_value, "lowest drawn", lowest, "grad", nozzle_grad)
