"""Correct: a damped oscillator settling over 30 steps on fresh arrays: a simulation, not a truncated solve."""
import numpy as np
import warp as wp

N = 16


@wp.kernel
def step(q: wp.array(dtype=float), v: wp.array(dtype=float), k: wp.array(dtype=float), dt: float,
         q_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    vn = (v[i] - k[0] * q[i] * dt) * 0.8
    v_out[i] = vn
    q_out[i] = q[i] + vn * dt


@wp.kernel
def final(q: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, q[wp.tid()] * q[wp.tid()])


k = wp.array([3.0], dtype=float, requires_grad=True)
qs = [wp.array(np.linspace(-1, 1, N, dtype=np.float32), requires_grad=True)] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(30)]
vs = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(31)]
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for s in range(30):
        wp.launch(step, dim=N, inputs=[qs[s], vs[s], k, 0.1], outputs=[qs[s + 1], vs[s + 1]])
    wp.launch(final, dim=N, inputs=[qs[-1]], outputs=[out])
tape.backward(out)
print(k.grad.numpy())
