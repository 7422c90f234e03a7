"""Route a pollutant pulse through two river reaches; the second reach starts from the first's array.

Each reach seeds its outflow with `wp.copy(out, inflow, count=1)` (Warp
records that copy's adjoint on the tape itself), and the hand-over stays in
Warp: the gradient is right (quiet).
"""

import numpy as np
import warp as wp

N_T = 16


@wp.kernel
def decay_step(inflow: wp.array(dtype=float), p: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    out[n] = 0.5 * (inflow[n] + out[n - 1]) * wp.exp(-p[0])


@wp.kernel
def misfit(q: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = q[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


def route(inflow, p):
    out = wp.zeros(N_T, dtype=float, requires_grad=True)
    wp.copy(out, inflow, count=1)
    for n in range(1, N_T):
        wp.launch(decay_step, dim=1, inputs=[inflow, p, n], outputs=[out])
    return out


if __name__ == "__main__":
    p = wp.array([0.2], dtype=float, requires_grad=True)
    pulse = wp.array(np.exp(-np.linspace(-2.0, 2.0, N_T) ** 2).astype(np.float32), dtype=float)
    obs = wp.array(np.full(N_T, 0.3, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        q1 = route(pulse, p)
        q2 = route(q1, p)
        wp.launch(misfit, dim=N_T, inputs=[q2, obs], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0], "gradient", p.grad.numpy())
