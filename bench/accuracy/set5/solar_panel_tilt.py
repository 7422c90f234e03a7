"""Optimize tilt angles of a solar array row (energy yield minus mutual shading)."""
import numpy as np
import warp as wp

NPANEL = 4


@wp.kernel
def panel_yield(tilt: wp.array(dtype=wp.float32), sun_elev: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, h = wp.tid()
    incidence = wp.cos(sun_elev[h] - (1.5708 - tilt[i]))
    shade = 0.0
    if i > 0:
        shade = 0.4 * wp.sin(tilt[i - 1]) * wp.sin(tilt[i - 1]) * wp.cos(sun_elev[h])
    wp.atomic_add(loss, 0, -wp.max(incidence - shade, 0.0))


def yield_loss(tilt, sun):
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(panel_yield, dim=(NPANEL, sun.shape[0]), inputs=[tilt, sun], outputs=[loss])
    return loss


def sun_path():
    return wp.array(np.linspace(0.2, 1.1, 8).astype(np.float32), dtype=wp.float32)


def optimize(iters=40, lr=0.05):
    sun = sun_path()
    tilt = wp.array(np.array([0.2, 0.5, 0.8, 1.0], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = yield_loss(tilt, sun)
        g = tilt.grad.numpy().copy()  # expect: grad_read
        tilt.grad.zero_()
        tape.backward(loss)
        history.append((tilt.numpy().copy(), g))
        tilt.assign(tilt.numpy() - lr * g)
    print("tilts", tilt.numpy(), "yield", -loss.numpy()[0])
    return history


if __name__ == "__main__":
    optimize()
