# correct: runtime-bounded loop in a kernel that accumulates head loss into a local with +=; the accumulated local is used only linearly after the loop (out = p - drop), so the missing loop replay does not matter
"""Calibrate irrigation-line friction factors from pressure gauges (additive head-loss model)."""
import numpy as np
import warp as wp

NPIPE = 4
NSEG = wp.constant(6)


@wp.kernel
def outlet_pressure(friction: wp.array(dtype=wp.float32), inlet: wp.array(dtype=wp.float32), n_seg: int,
                    out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    p = inlet[i]
    drop = wp.float32(0.0)
    for s in range(n_seg):
        drop += friction[i] * friction[i] * (1.0 + 0.1 * wp.float32(s)) * inlet[i] * 10.0
    out[i] = p - drop


@wp.kernel
def gauge_error(out: wp.array(dtype=wp.float32), gauge: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = out[i] - gauge[i]
    wp.atomic_add(loss, 0, d * d)


INLET = np.array([5.0, 4.0, 6.0, 4.5], dtype=np.float32)
GAUGE = np.array([1.9, 1.5, 2.1, 1.0], dtype=np.float32)


def calibration_error(friction):
    out = wp.zeros(NPIPE, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(outlet_pressure, dim=NPIPE, inputs=[friction, wp.array(INLET, dtype=wp.float32), 6], outputs=[out])
    wp.launch(gauge_error, dim=NPIPE, inputs=[out, wp.array(GAUGE, dtype=wp.float32)], outputs=[loss])
    return loss


def calibrate(iters=40, lr=1e-3):
    friction = wp.array(np.full(NPIPE, 0.12, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = calibration_error(friction)
        tape.backward(loss)
        g = friction.grad.numpy().copy()
        history.append((friction.numpy().copy(), g))
        friction.assign(friction.numpy() - lr * g)
        tape.zero()
    print("friction", friction.numpy())
    return history


if __name__ == "__main__":
    calibrate()
