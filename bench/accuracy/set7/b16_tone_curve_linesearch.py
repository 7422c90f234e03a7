"""Fit a 3-parameter tone curve (gain, gamma, lift) to a graded image, gradient descent with Armijo backtracking."""
import numpy as np
import warp as wp

from _metrics import objective

H, W = 16, 16
rng = np.random.default_rng(5)
SRC = rng.uniform(0.02, 1.0, (H, W)).astype(np.float32)
DST = (1.1 * SRC ** 0.8 + 0.03).astype(np.float32)


@wp.kernel
def tone_error(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float), p: wp.array(dtype=float),
               err: wp.array2d(dtype=float)):
    y, x = wp.tid()
    out = p[0] * wp.pow(src[y, x], p[1]) + p[2]
    r = out - dst[y, x]
    err[y, x] = r * r


def loss_and_grad(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    err = wp.zeros((H, W), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(tone_error, dim=(H, W), inputs=[wp.array(SRC), wp.array(DST), p], outputs=[err])
    tape.backward(grads={err: wp.ones((H, W), dtype=float)})  # expect: seeding
    return objective(err), p.grad.numpy().copy()


def fit(p, iters=10):
    f, g = loss_and_grad(p)
    for it in range(iters):
        step = 1.0
        while True:  # Armijo: sufficient decrease of the objective along -g
            p_new = (p - step * g).astype(np.float32)
            f_new, g_new = loss_and_grad(p_new)
            if f_new <= f - 1e-4 * step * float(g @ g) or step < 1e-6:
                break
            step *= 0.5
        p, f, g = p_new, f_new, g_new
    return p, f


PARAMS0 = np.array([1.0, 1.0, 0.0], dtype=np.float32)
evaluate = loss_and_grad

if __name__ == "__main__":
    p, f = fit(PARAMS0)
    print("params", p, "objective", f)
