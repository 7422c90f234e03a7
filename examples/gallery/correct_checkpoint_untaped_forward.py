"""Correct: checkpointing with an untaped first pass.

The first segment runs without a tape (only its end state is kept), the
second is recorded from copies of that state and differentiated first; then
the first segment is recomputed on its own tape and seeded with the copies'
adjoints. The untaped steps are recomputed, so no gradient is cut.
"""

import numpy as np
import warp as wp

N, STEPS = 4, 3


@wp.kernel
def step(x: wp.array(dtype=float), v: wp.array(dtype=float), k: wp.array(dtype=float),
         x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    a = -k[0] * x[i]
    v_out[i] = v[i] + a * 0.1
    x_out[i] = x[i] + v_out[i] * 0.1


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


def segment(x0, v0, k):
    xs, vs = [x0], [v0]
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            xs.append(wp.zeros_like(x0))
            vs.append(wp.zeros_like(v0))
            wp.launch(step, dim=N, inputs=[xs[-2], vs[-2], k], outputs=[xs[-1], vs[-1]])
    return tape, xs[-1], vs[-1]


def rollout(x0, v0, k):
    xs, vs = [x0], [v0]
    for _ in range(STEPS):
        xs.append(wp.zeros_like(x0))
        vs.append(wp.zeros_like(v0))
        wp.launch(step, dim=N, inputs=[xs[-2], vs[-2], k], outputs=[xs[-1], vs[-1]])
    return xs[-1], vs[-1]


k = wp.array([2.0], dtype=float, requires_grad=True)
x0 = wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)
v0 = wp.zeros(N, dtype=float, requires_grad=True)
x_ck, v_ck = rollout(x0, v0, k)  # no tape: only the end state is kept
x_cp = wp.clone(x_ck, requires_grad=True)
v_cp = wp.clone(v_ck, requires_grad=True)
tape2, x_end, v_end = segment(x_cp, v_cp, k)
loss = wp.zeros(1, dtype=float, requires_grad=True)
with tape2:
    wp.launch(loss_kernel, dim=N, inputs=[x_end], outputs=[loss])
tape2.backward(loss)
tape1, x_mid, v_mid = segment(x0, v0, k)  # the first segment again, on a tape
x_mid.grad.assign(x_cp.grad)
v_mid.grad.assign(v_cp.grad)
tape1.backward()
print("d loss / d k", k.grad.numpy())
