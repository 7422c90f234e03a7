# correct: backward is seeded by hand over the per-point errors instead of from a scalar loss, but with 1/N per element, exactly the gradient of the mean the program reports.
"""Lens distortion calibration: fit the radial coefficients k1, k2 and the
distortion centre of a Brown-Conrady model to detected grid corners, minimising
the mean squared corner error."""
import numpy as np
import warp as wp

N = 49


@wp.kernel
def distort_error(ideal: wp.array(dtype=wp.vec2), detected: wp.array(dtype=wp.vec2), lens: wp.array(dtype=float),
                  err: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.vec2(lens[2], lens[3])
    d = ideal[i] - c
    r2 = wp.dot(d, d)
    f = 1.0 + lens[0] * r2 + lens[1] * r2 * r2
    e = c + f * d - detected[i]
    err[i] = wp.dot(e, e)


def grid():
    s = np.linspace(-0.9, 0.9, 7)
    X, Y = np.meshgrid(s, s)
    return np.stack([X.ravel(), Y.ravel()], 1).astype(np.float32)


def distort_np(p, lens):
    c = np.array(lens[2:4])
    d = p - c
    r2 = (d * d).sum(1, keepdims=True)
    return (c + (1 + lens[0] * r2 + lens[1] * r2 * r2) * d).astype(np.float32)


IDEAL = grid()
DETECTED = distort_np(IDEAL, [-0.18, 0.04, 0.03, -0.02])
PARAMS0 = [0.0, 0.0, 0.0, 0.0]


def evaluate(p):
    lens = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    err = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(distort_error, dim=N, inputs=[wp.array(IDEAL, dtype=wp.vec2), wp.array(DETECTED, dtype=wp.vec2), lens],
                  outputs=[err])
    loss = float(err.numpy().mean())
    tape.backward(grads={err: wp.full(N, 1.0 / N, dtype=float)})
    return loss, lens.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(p)
        p -= 0.2 * g
    print(f"mean corner error {l:.3e} k1 {p[0]:.4f} k2 {p[1]:.4f} centre ({p[2]:.4f}, {p[3]:.4f})")
