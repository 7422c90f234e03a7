# correct: a hand-written @wp.func_grad feeds a value that the kernel also uses elsewhere, but the adjoint accumulates with += and multiplies by adj_ret
"""Total-variation image denoising (Charbonnier-smoothed TV) solved by
gradient descent on the pixels.  The same finite difference enters both the
TV penalty (through the custom-adjoint Charbonnier) and a small quadratic
smoothness term.
"""
import numpy as np
import warp as wp

from _smooth_ops import charbonnier

wp.config.quiet = True

RES = 12
EPS = 0.05
LAM = 0.15
MU = 0.02


@wp.kernel
def tv_energy(u: wp.array2d(dtype=float), f: wp.array2d(dtype=float), energy: wp.array(dtype=float)):
    y, x = wp.tid()
    d = u[y, x] - f[y, x]
    e = 0.5 * d * d
    if x + 1 < RES:
        gx = u[y, x + 1] - u[y, x]
        e += LAM * charbonnier(gx, EPS) + MU * gx * gx
    if y + 1 < RES:
        gy = u[y + 1, x] - u[y, x]
        e += LAM * charbonnier(gy, EPS) + MU * gy * gy
    wp.atomic_add(energy, 0, e)


def noisy_image(seed=0):
    rng = np.random.default_rng(seed)
    img = np.zeros((RES, RES))
    img[3:9, 2:7] = 1.0
    img[6:11, 7:11] = 0.5
    return img, img + rng.normal(0, 0.15, img.shape)


CLEAN, NOISY = noisy_image()
F = wp.array(NOISY.astype(np.float32), dtype=float)
PARAMS0 = NOISY.ravel().copy()
FD_EPS = 3e-3


def evaluate(p):
    u = wp.array(np.asarray(p, np.float32).reshape(RES, RES), dtype=float, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(tv_energy, dim=(RES, RES), inputs=[u, F], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), u.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(150):
        e, g = evaluate(p)
        p -= 0.1 * g
        if it % 50 == 0:
            print(f"iter {it:3d} energy {e:.4f} rmse vs clean {np.sqrt(((p - CLEAN.ravel()) ** 2).mean()):.4f}")
