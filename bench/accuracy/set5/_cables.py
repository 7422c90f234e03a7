"""Static cable-net model: node sag under pretension and deck load."""
import numpy as np
import warp as wp

NCABLE = 5


@wp.kernel
def cable_sag(pretension: wp.array(dtype=wp.float32), load: wp.array(dtype=wp.float32), span: wp.float32,
              sag: wp.array(dtype=wp.float32)):
    i = wp.tid()
    t = wp.max(pretension[i], 0.1)
    sag[i] = load[i] * span * span / (8.0 * t) + 0.002 * t * t


@wp.kernel
def sag_cost(sag: wp.array(dtype=wp.float32), limit: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = sag[i] - limit
    wp.atomic_add(loss, 0, d * d)
    if i > 0:
        e = sag[i] - sag[i - 1]
        wp.atomic_add(loss, 0, 0.5 * e * e)


def deck_load():
    return wp.array(np.array([1.0, 1.4, 2.0, 1.4, 1.0], dtype=np.float32), dtype=wp.float32)


def total_cost(pretension, load, span=4.0, limit=0.3):
    sag = wp.zeros(NCABLE, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(cable_sag, dim=NCABLE, inputs=[pretension, load, span], outputs=[sag])
    wp.launch(sag_cost, dim=NCABLE, inputs=[sag, limit], outputs=[loss])
    return loss
