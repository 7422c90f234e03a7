"""Fit a drug's elimination rate; the kernel builds the concentration in a local, then stores it once.

`pre = c0[i] + dose[i]` is a register value: the rescaling reads it, not
the array, and `c[i]` is written once, so the adjoint reads what the
forward pass used.
"""

import numpy as np
import warp as wp

N = 12


@wp.kernel
def eliminate(c0: wp.array(dtype=float), dose: wp.array(dtype=float), k: wp.array(dtype=float),
              t: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    pre = c0[i] + dose[i]
    c[i] = pre * wp.exp(-k[0] * t[i])


@wp.kernel
def misfit(c: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = c[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


def main():
    rng = np.random.default_rng(5)
    c0 = wp.array(rng.uniform(1.0, 2.0, N).astype(np.float32), dtype=float)
    dose = wp.array(rng.uniform(4.0, 6.0, N).astype(np.float32), dtype=float)
    t = wp.array(np.linspace(0.5, 6.0, N, dtype=np.float32), dtype=float)
    obs = wp.array(rng.uniform(1.0, 3.0, N).astype(np.float32), dtype=float)
    k = wp.array([0.3], dtype=float, requires_grad=True)
    for _ in range(3):
        c = wp.zeros(N, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(eliminate, dim=N, inputs=[c0, dose, k, t], outputs=[c])
            wp.launch(misfit, dim=N, inputs=[c, obs], outputs=[loss])
        tape.backward(loss)
        k.assign(k.numpy() - 1e-3 * k.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
