"""Correct look-alike of split_tape_seed_after_zero.py: the blurred image's adjoint is cloned before the
sensor tape is zeroed, so the lens tape is seeded with the real gradient."""

import numpy as np
import warp as wp

P = 16


@wp.kernel
def lens_blur(scene: wp.array(dtype=float), width: wp.array(dtype=float), image: wp.array(dtype=float)):
    i = wp.tid()
    left = scene[wp.max(i - 1, 0)]
    right = scene[wp.min(i + 1, P - 1)]
    w = width[0]
    image[i] = (1.0 - 2.0 * w) * scene[i] + w * (left + right)


@wp.kernel
def sensor(image: wp.array(dtype=float), gain: wp.array(dtype=float), target: wp.array(dtype=float),
           loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.tanh(gain[0] * image[i]) - target[i]
    wp.atomic_add(loss, 0, r * r)


scene = wp.array(np.sin(np.linspace(0.0, 3.0, P)).astype(np.float32))
target = wp.array((0.6 * np.sin(np.linspace(0.0, 3.0, P))).astype(np.float32))
width = wp.array([0.2], dtype=float, requires_grad=True)
gain = wp.array([1.0], dtype=float, requires_grad=True)
image = wp.zeros(P, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

lens_tape = wp.Tape()
with lens_tape:
    wp.launch(lens_blur, dim=P, inputs=[scene, width], outputs=[image])
sensor_tape = wp.Tape()
with sensor_tape:
    wp.launch(sensor, dim=P, inputs=[image, gain, target], outputs=[loss])
sensor_tape.backward(loss)
d_gain = gain.grad.numpy().copy()
d_image = wp.clone(image.grad)
sensor_tape.zero()
lens_tape.backward(grads={image: d_image})
print("d loss / d gain", d_gain, "d loss / d width", width.grad.numpy())
