"""Correct look-alike of export_frame_alias.py: the export buffer is an array of its own, so the
untaped `wrap_torus` launch leaves `pos`, which the taped spread kernel read, as it was."""

import numpy as np
import warp as wp

N = 32
L = 1.0


@wp.kernel
def drift(pos: wp.array(dtype=wp.vec2), wind: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    out[i] = pos[i] + wind[0] * (1.0 + 0.3 * wp.sin(3.0 * pos[i][1]))


@wp.kernel
def spread(pos: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.length_sq(pos[i] - wp.vec2(0.5, 0.5)) / float(N))


@wp.kernel
def wrap_torus(src: wp.array(dtype=wp.vec2), box: float, dst: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = src[i]
    dst[i] = wp.vec2(p[0] - box * wp.floor(p[0] / box), p[1] - box * wp.floor(p[1] / box))


rng = np.random.default_rng(2)
start = wp.array(rng.uniform(0.7, 0.95, size=(N, 2)).astype(np.float32), dtype=wp.vec2)
wind = wp.array([[0.2, 0.1]], dtype=wp.vec2, requires_grad=True)
pos = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(drift, dim=N, inputs=[start, wind], outputs=[pos])
    wp.launch(spread, dim=N, inputs=[pos], outputs=[loss])
frame = wp.empty_like(pos)
wp.launch(wrap_torus, dim=N, inputs=[pos, L], outputs=[frame])
snapshot = frame.numpy()
tape.backward(loss)
print("exported", snapshot.shape, "d loss / d wind", wind.grad.numpy())
