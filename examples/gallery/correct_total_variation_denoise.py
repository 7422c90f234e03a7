"""Denoise a 1-D signal on data fit + smoothed total variation (its custom adjoint scales by adj_ret).

tapewatch-test: --check-launches
"""

import numpy as np
import warp as wp

from _smooth_ops import soft_abs_scaled as soft_abs

N = 64


@wp.kernel
def energy(u: wp.array(dtype=float), f: wp.array(dtype=float), weight: float, e: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - f[i]
    tv = float(0.0)
    if i + 1 < u.shape[0]:
        tv = soft_abs(u[i + 1] - u[i], 0.05)
    wp.atomic_add(e, 0, 0.5 * d * d + weight * tv)


def denoise(noisy, steps=5, lr=0.2):
    f = wp.array(noisy, dtype=float)
    u = wp.array(noisy, dtype=float, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    for _ in range(steps):
        e.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(energy, dim=N, inputs=[u, f, 0.3], outputs=[e])
        tape.backward(e)
        u.assign(u.numpy() - lr * u.grad.numpy())
        tape.zero()
    return u.numpy(), float(e.numpy()[0])


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    clean = np.where(np.arange(N) < N // 2, 0.0, 1.0).astype(np.float32)
    u, e = denoise((clean + 0.1 * rng.standard_normal(N)).astype(np.float32))
    print("energy", e, "error", float(np.abs(u - clean).mean()))
