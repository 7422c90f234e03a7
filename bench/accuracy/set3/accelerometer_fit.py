# correct: accelerometer bias/scale calibration; data arrays are no-grad clones, the corrected buffer is *_like with requires_grad=True
import numpy as np
import warp as wp

GRAV = 9.81


@wp.kernel
def despike(raw: wp.array(dtype=wp.vec3), limit: float):
    i = wp.tid()
    a = raw[i]
    raw[i] = wp.vec3(wp.clamp(a[0], -limit, limit), wp.clamp(a[1], -limit, limit), wp.clamp(a[2], -limit, limit))


@wp.kernel
def apply_calibration(
    raw: wp.array(dtype=wp.vec3),
    gains: wp.array(dtype=float),
    bias: wp.array(dtype=wp.vec3),
    out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    a = raw[i] - bias[0]
    out[i] = wp.vec3(gains[0] * a[0], gains[1] * a[1], gains[2] * a[2])


@wp.kernel
def gravity_residual(a: wp.array(dtype=wp.vec3), w: wp.array(dtype=float), g: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.length(a[i]) - g
    wp.atomic_add(loss, 0, w[i] * r * r)


rng = np.random.default_rng(4)
n = 48
d = rng.normal(size=(n, 3))
d /= np.linalg.norm(d, axis=1, keepdims=True)
raw_np = (GRAV * d * np.array([1.02, 0.97, 1.05]) + np.array([0.1, -0.2, 0.3])).astype(np.float32)

raw = wp.array(raw_np, dtype=wp.vec3)
clean = wp.clone(raw)  # data only, no gradient needed
wp.launch(despike, dim=n, inputs=[clean, 30.0])
weights = wp.full(n, 1.0 / n, dtype=float)

gains = wp.array([1.0, 1.0, 1.0], dtype=float, requires_grad=True)
bias = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
calibrated = wp.empty_like(clean, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(apply_calibration, dim=n, inputs=[clean, gains, bias], outputs=[calibrated])
    wp.launch(gravity_residual, dim=n, inputs=[calibrated, weights, GRAV], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
gains_grad = gains.grad.numpy().copy()
bias_grad = bias.grad.numpy()[0].copy()
print("loss", loss_value, "dgains", gains_grad, "dbias", bias_grad)
