"""A gait model whose joint moments come from two kernels: the stance kernel writes every frame, then the
flight kernel (``f = first + wp.tid()``) rewrites the airborne ones of the array kept with ``retain_grad=True``:
each airborne frame's gradient reaches both adjoints and is counted twice."""

import numpy as np
import warp as wp

wp.config.quiet = True

FRAMES = 40
TAKEOFF = 24
ANGLE = wp.array(np.linspace(0.2, 1.1, FRAMES).astype(np.float32), dtype=float)
TARGET = wp.array(np.linspace(1.0, 3.0, FRAMES).astype(np.float32), dtype=float)


@wp.kernel
def stance(p: wp.array(dtype=float), angle: wp.array(dtype=float), tau: wp.array(dtype=float)):
    f = wp.tid()
    tau[f] = p[0] * wp.sin(angle[f]) + p[1]


@wp.kernel
def flight(p: wp.array(dtype=float), angle: wp.array(dtype=float), first: int, tau: wp.array(dtype=float)):
    f = first + wp.tid()
    tau[f] = p[0] * p[1] * wp.cos(angle[f])


@wp.kernel
def misfit(tau: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    f = wp.tid()
    d = tau[f] - target[f]
    wp.atomic_add(loss, 0, d * d)


p = wp.array([2.0, 0.5], dtype=float, requires_grad=True)
tau = wp.zeros(FRAMES, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(stance, dim=FRAMES, inputs=[p, ANGLE], outputs=[tau])
    wp.launch(flight, dim=FRAMES - TAKEOFF, inputs=[p, ANGLE, TAKEOFF], outputs=[tau])
    wp.launch(misfit, dim=FRAMES, inputs=[tau, TARGET], outputs=[loss])
tape.backward(loss)
print("d loss / d p", p.grad.numpy(), "frame sensitivity", tau.grad.numpy()[:3])
