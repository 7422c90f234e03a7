"""Identify a velocity decay rate from a reference rollout: the step damps its output in place.

The reference rollout runs first with a constant rate (no gradient), then the
fit runs the same kernel with a rate that wants one. In the fit, the adjoint
of `v_out[i] *= wp.exp(-rate[0] * DT)` reads the already damped velocity for
the rate's gradient.
"""
import numpy as np
import warp as wp

DT = 0.1
STEPS = 5


@wp.kernel
def damped_step(v: wp.array(dtype=float), rate: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] + DT * wp.sin(v[i])
    v_out[i] *= wp.exp(-rate[0] * DT)  # expect: TW104


@wp.kernel
def misfit(v: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = v[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def rollout(rate, v0):
    v = v0
    for _ in range(STEPS):
        v_next = wp.empty_like(v, requires_grad=True)
        wp.launch(damped_step, dim=v.shape[0], inputs=[v, rate], outputs=[v_next])
        v = v_next
    return v


v0 = wp.array(np.linspace(0.5, 1.5, 4, dtype=np.float32))
reference = rollout(wp.array([0.8], dtype=float), v0)
rate = wp.array([0.3], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    v = rollout(rate, v0)
    wp.launch(misfit, dim=4, inputs=[v, reference], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "d loss / d rate", rate.grad.numpy()[0])
