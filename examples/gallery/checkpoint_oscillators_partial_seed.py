"""Checkpointed rollout of damped oscillators whose stiffness and damping arrays have the state's shape:
the first segment runs untaped and keeps a checkpoint, the second is differentiated, then the first is
re-recorded and seeded with the position adjoint only: the velocity's share of the later segment's
gradient is lost (the look-alike seeds both; the stiffness and damping arrays, of the state's shape,
are parameters, not state to seed)."""

import numpy as np
import warp as wp

N = 6
STEPS = 8
SPLIT = 4


@wp.kernel
def step(x: wp.array(dtype=float), v: wp.array(dtype=float), k: wp.array(dtype=float), c: wp.array(dtype=float),
         dt: float, x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    a = -k[i] * x[i] - c[i] * v[i] * wp.abs(v[i])
    v_new = v[i] + dt * a
    v_out[i] = v_new
    x_out[i] = x[i] + dt * v_new


@wp.kernel
def final_energy(x: wp.array(dtype=float), v: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, x[i] * x[i] + 0.5 * v[i] * v[i])


def rollout(x, v, k, c, steps):
    for _ in range(steps):
        x_next = wp.zeros_like(x)
        v_next = wp.zeros_like(v)
        wp.launch(step, dim=N, inputs=[x, v, k, c, 0.05], outputs=[x_next, v_next])
        x, v = x_next, v_next
    return x, v


k = wp.array(np.linspace(1.0, 3.0, N, dtype=np.float32), requires_grad=True)
c = wp.array(np.linspace(0.1, 0.3, N, dtype=np.float32), requires_grad=True)
x0 = wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)
v0 = wp.array(np.linspace(-0.2, 0.2, N, dtype=np.float32), requires_grad=True)

x_mid, v_mid = rollout(x0, v0, k, c, SPLIT)  # untaped: only the checkpoint is kept
x_cp = wp.clone(x_mid, requires_grad=True)
v_cp = wp.clone(v_mid, requires_grad=True)

e = wp.zeros(1, dtype=float, requires_grad=True)
late = wp.Tape()
with late:
    x_end, v_end = rollout(x_cp, v_cp, k, c, STEPS - SPLIT)
    wp.launch(final_energy, dim=N, inputs=[x_end, v_end], outputs=[e])
late.backward(e)

early = wp.Tape()
with early:
    x_mid, v_mid = rollout(x0, v0, k, c, SPLIT)
early.backward(grads={x_mid: x_cp.grad})  # expect: TW204
print("d e / d k", k.grad.numpy())
