"""Spread map labels apart with a soft all-pairs repulsion while keeping them near their anchors."""
import numpy as np
import warp as wp

H = 0.3


@wp.kernel
def repulsion(pos: wp.array(dtype=wp.vec2), h: float, energy: wp.array(dtype=float)):
    i, j = wp.tid()
    d = pos[i] - pos[j]
    r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    wp.atomic_add(energy, 0, 0.5 * wp.exp(-r / h))


@wp.kernel
def anchor(pos: wp.array(dtype=wp.vec2), anchors: wp.array(dtype=wp.vec2), energy: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - anchors[i]
    wp.atomic_add(energy, 0, 2.0 * wp.dot(d, d))


rng = np.random.default_rng(29)
n = 10
anchors_np = rng.uniform(0.0, 1.0, (n, 2)).astype(np.float32)
anchors = wp.array(anchors_np, dtype=wp.vec2)
pos = wp.array(anchors_np + 0.02 * rng.normal(size=(n, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(repulsion, dim=(n, n), inputs=[pos, H], outputs=[energy])
    wp.launch(anchor, dim=n, inputs=[pos, anchors], outputs=[energy])
tape.backward(energy)

energy_value = float(energy.numpy()[0])
pos_grad = pos.grad.numpy().copy()
print("layout energy", energy_value)
print("gradient on label 0:", pos_grad[0])
