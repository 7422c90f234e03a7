"""Tune a spring stiffness; each step gets its own force buffer, with retain_grad=True for a plot.

Every buffer is assigned once on the tape, so keeping its gradient mixes
nothing (measured: the same dk as without retain_grad).
"""
import numpy as np
import warp as wp

STEPS = 6
DT = 0.05


@wp.kernel
def spring_force(x: wp.array(dtype=float), k: wp.array(dtype=float), force: wp.array(dtype=float)):
    i = wp.tid()
    force[i] = -k[0] * x[i] * wp.abs(x[i])


@wp.kernel
def integrate(x: wp.array(dtype=float), v: wp.array(dtype=float), force: wp.array(dtype=float),
              x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] + DT * force[i]
    x_out[i] = x[i] + DT * v_out[i]


@wp.kernel
def final_energy(x: wp.array(dtype=float), v: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, v[i] * v[i] + x[i] * x[i])


def rollout(k, n):
    x = wp.array(np.linspace(0.5, 1.5, n, dtype=np.float32), requires_grad=True)
    v = wp.zeros(n, dtype=float, requires_grad=True)
    force = None
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x_next = wp.empty_like(x)
            v_next = wp.empty_like(v)
            force = wp.zeros(n, dtype=float, requires_grad=True, retain_grad=True)
            wp.launch(spring_force, dim=n, inputs=[x, k], outputs=[force])
            wp.launch(integrate, dim=n, inputs=[x, v, force], outputs=[x_next, v_next])
            x, v = x_next, v_next
        wp.launch(final_energy, dim=n, inputs=[x, v], outputs=[loss])
    tape.backward(loss)
    return loss.numpy()[0], k.grad.numpy()[0], np.abs(force.grad.numpy()).max()


k = wp.array([2.0], dtype=float, requires_grad=True)
print("loss %.5f dk %.5f |dforce| %.5f" % rollout(k, 4))
