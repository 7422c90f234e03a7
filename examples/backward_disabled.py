"""A forward-only kernel in the middle of a differentiated rollout.

A ball is launched with an initial velocity that is optimized to reach a
target.  Air drag was marked ``enable_backward=False`` ("it is just damping,
it needs no gradient"), but it sits on the tape between the initial velocity
and the loss: ``tape.backward()`` skips its adjoint without an error, so the
gradient with respect to the launch velocity is zero and the optimizer never
moves.  Warp prints a generic warning at backward(); Tapewatch names the
launch.

Fix: drop ``enable_backward=False`` (or keep the kernel off the tape).
"""

import numpy as np
import warp as wp

STEPS = 8
DT = 0.05


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + v[i] * dt


@wp.kernel(enable_backward=False)  # expect: TW405
def apply_drag(v: wp.array(dtype=wp.vec3), drag: float, dt: float, v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vel = v[i]
    v_out[i] = vel - vel * wp.length(vel) * drag * dt + wp.vec3(0.0, -9.81, 0.0) * dt


@wp.kernel
def distance_loss(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = x[0] - target
    loss[0] = wp.dot(d, d)


x0 = wp.array(np.zeros((1, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)
v0 = wp.array(np.array([[3.0, 4.0, 0.0]], dtype=np.float32), dtype=wp.vec3, requires_grad=True)
target = wp.vec3(2.0, 0.5, 0.0)

for it in range(2):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x, v = x0, v0
        for _ in range(STEPS):
            v_next = wp.empty_like(v)
            wp.launch(apply_drag, dim=1, inputs=[v, 0.1, DT], outputs=[v_next])  # launch
            x_next = wp.empty_like(x)
            wp.launch(integrate, dim=1, inputs=[x, v_next, DT], outputs=[x_next])
            x, v = x_next, v_next
        wp.launch(distance_loss, dim=1, inputs=[x, target], outputs=[loss])
    tape.backward(loss)
    print("iteration", it, "loss", loss.numpy()[0], "d loss / d v0", v0.grad.numpy()[0])
    tape.zero()
