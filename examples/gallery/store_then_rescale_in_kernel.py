"""Fit a drug's elimination rate; the kernel stores the concentration, then rescales it in place.

`c[i] = c0[i] + dose` followed by `c[i] = c[i] * wp.exp(-k t)`: the second
statement reads the value the first stored and overwrites it. Warp's
backward re-reads `c[i]` from memory, where the rescaled value now sits,
so the adjoint of the exponential factor uses the wrong concentration.
"""

import numpy as np
import warp as wp

N = 12


@wp.kernel
def eliminate(c0: wp.array(dtype=float), dose: wp.array(dtype=float), k: wp.array(dtype=float),
              t: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = c0[i] + dose[i]
    c[i] = c[i] * wp.exp(-k[0] * t[i])  # expect: TW104


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
