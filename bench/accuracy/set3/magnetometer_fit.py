"""Hard/soft-iron magnetometer calibration: scale and offset so corrected readings lie on the unit sphere."""
import numpy as np
import warp as wp


@wp.kernel
def correct_readings(
    raw: wp.array(dtype=wp.vec3),
    scale: wp.array(dtype=wp.vec3),
    offset: wp.array(dtype=wp.vec3),
    out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    out[i] = wp.cw_mul(scale[0], raw[i] - offset[0])


@wp.kernel
def sphere_residual(m: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.dot(m[i], m[i]) - 1.0
    wp.atomic_add(loss, 0, r * r / float(m.shape[0]))


def synthetic_readings(n, rng):
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    true_scale = np.array([1.3, 0.8, 1.1])
    true_offset = np.array([0.2, -0.1, 0.05])
    return (d / true_scale + true_offset + 0.01 * rng.normal(size=(n, 3))).astype(np.float32)


rng = np.random.default_rng(8)
raw = wp.array(synthetic_readings(64, rng), dtype=wp.vec3)

scale = wp.array([wp.vec3(1.0, 1.0, 1.0)], dtype=wp.vec3, requires_grad=True)
offset = wp.array([wp.vec3(0.0, 0.0, 0.0)], dtype=wp.vec3, requires_grad=True)
corrected = wp.zeros_like(raw)  # expect: requires_grad
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(correct_readings, dim=raw.shape[0], inputs=[raw, scale, offset], outputs=[corrected])
    wp.launch(sphere_residual, dim=raw.shape[0], inputs=[corrected], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
scale_grad = scale.grad.numpy()[0].copy()
offset_grad = offset.grad.numpy()[0].copy()
print("loss", loss_value)
print("d/dscale", scale_grad, "d/doffset", offset_grad)
