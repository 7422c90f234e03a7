"""A heat rod differentiated in two checkpointed windows; the first window is seeded through
`grads=` with the temperature's adjoint only: the flux `q_mid` gets none, so its share of the
gradient from the second window is lost.
"""

import numpy as np
import warp as wp

N, STEPS = 8, 4


@wp.kernel
def diffuse(u: wp.array(dtype=float), q: wp.array(dtype=float), kappa: wp.array(dtype=float),
            u_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    left = u[wp.max(i - 1, 0)]
    right = u[wp.min(i + 1, N - 1)]
    q_out[i] = 0.5 * q[i] + kappa[0] * (right - left)
    u_out[i] = u[i] + 0.1 * (q_out[i] - q[i])


@wp.kernel
def energy(u: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, u[i] * u[i])


class Rollout:
    def __init__(self, kappa):
        self.kappa = wp.array([kappa], dtype=float, requires_grad=True)

    def window(self, u, q):
        tape = wp.Tape()
        with tape:
            for _ in range(STEPS):
                u_next, q_next = wp.zeros_like(u), wp.zeros_like(q)
                wp.launch(diffuse, dim=N, inputs=[u, q, self.kappa], outputs=[u_next, q_next])
                u, q = u_next, q_next
        return tape, u, q

    def gradient(self, u0, q0):
        tape1, u_mid, q_mid = self.window(u0, q0)
        u_cp = wp.clone(u_mid, requires_grad=True)
        q_cp = wp.clone(q_mid, requires_grad=True)
        tape2, u_end, _ = self.window(u_cp, q_cp)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape2:
            wp.launch(energy, dim=N, inputs=[u_end], outputs=[loss])
        tape2.backward(loss)
        tape1.backward(grads={u_mid: u_cp.grad})  # expect: TW204
        return self.kappa.grad.numpy()


u0 = wp.array(np.sin(np.linspace(0.0, 3.0, N)).astype(np.float32), requires_grad=True)
q0 = wp.array(np.cos(np.linspace(0.0, 3.0, N)).astype(np.float32), requires_grad=True)
print("d energy / d kappa", Rollout(0.3).gradient(u0, q0))
