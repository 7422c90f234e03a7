"""Checkpointed velocity-Verlet rollout of an anharmonic spring chain: each step closes with the force at
the new positions, so the positions are read again after their last write.  The early segment is
re-recorded after the late one is differentiated and seeded with the velocity adjoint only: the
positions' share of the late segment's gradient is lost (the look-alike seeds both)."""

import numpy as np
import warp as wp

N = 8
HALF = 5
DT = 0.02


@wp.kernel
def chain_force(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    fi = -k[0] * x[i] * x[i] * x[i]
    if i > 0:
        fi += k[1] * (x[i - 1] - x[i])
    if i < N - 1:
        fi += k[1] * (x[i + 1] - x[i])
    f[i] = fi


@wp.kernel
def drift(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float), dt: float,
          x_out: wp.array(dtype=float), v_half: wp.array(dtype=float)):
    i = wp.tid()
    vh = v[i] + 0.5 * dt * f[i]
    v_half[i] = vh
    x_out[i] = x[i] + dt * vh


@wp.kernel
def kick(v_half: wp.array(dtype=float), f: wp.array(dtype=float), dt: float, v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v_half[i] + 0.5 * dt * f[i]


@wp.kernel
def energy(x: wp.array(dtype=float), v: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * v[i] * v[i] + 0.25 * x[i] * x[i] * x[i] * x[i])


def segment(x, v, k, steps):
    for _ in range(steps):
        f = wp.zeros_like(x)
        wp.launch(chain_force, dim=N, inputs=[x, k], outputs=[f])
        x_new, v_half = wp.zeros_like(x), wp.zeros_like(v)
        wp.launch(drift, dim=N, inputs=[x, v, f, DT], outputs=[x_new, v_half])
        f_new = wp.zeros_like(x)
        wp.launch(chain_force, dim=N, inputs=[x_new, k], outputs=[f_new])
        v_new = wp.zeros_like(v)
        wp.launch(kick, dim=N, inputs=[v_half, f_new, DT], outputs=[v_new])
        x, v = x_new, v_new
    return x, v


k = wp.array([1.5, 4.0], dtype=float, requires_grad=True)
x0 = wp.array(np.linspace(-0.6, 0.6, N, dtype=np.float32), requires_grad=True)
v0 = wp.zeros(N, dtype=float, requires_grad=True)

x_mid, v_mid = segment(x0, v0, k, HALF)  # untaped: only the checkpoint is kept
x_cp, v_cp = wp.clone(x_mid, requires_grad=True), wp.clone(v_mid, requires_grad=True)

e = wp.zeros(1, dtype=float, requires_grad=True)
late = wp.Tape()
with late:
    x_end, v_end = segment(x_cp, v_cp, k, HALF)
    wp.launch(energy, dim=N, inputs=[x_end, v_end], outputs=[e])
late.backward(e)

early = wp.Tape()
with early:
    x_mid, v_mid = segment(x0, v0, k, HALF)
early.backward(grads={v_mid: v_cp.grad})  # expect: TW204
print("d e / d k", k.grad.numpy())
