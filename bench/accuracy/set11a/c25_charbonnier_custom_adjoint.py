# correct: the Charbonnier penalty has a hand-written @wp.func_grad and its argument is reused in the kernel, but the adjoint accumulates with += and its math is exact.
"""Robust 2D point-set registration (rotation, translation, uniform scale) with
a Charbonnier penalty on the residuals, whose derivative is supplied as a
custom adjoint; a small quadratic term keeps the fit well-posed."""
import numpy as np
import warp as wp

N = 40
EPS2 = 1.0e-3


@wp.func
def charbonnier(r: float):
    return wp.sqrt(r * r + EPS2)


@wp.func_grad(charbonnier)
def adj_charbonnier(r: float, adj_ret: float):
    wp.adjoint[r] += r / wp.sqrt(r * r + EPS2) * adj_ret


@wp.kernel
def registration_loss(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), xf: wp.array(dtype=float),
                      loss: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.cos(xf[0])
    s = wp.sin(xf[0])
    p = src[i]
    q = xf[3] * wp.vec2(c * p[0] - s * p[1], s * p[0] + c * p[1]) + wp.vec2(xf[1], xf[2])
    rx = q[0] - dst[i][0]
    ry = q[1] - dst[i][1]
    wp.atomic_add(loss, 0, charbonnier(rx) + charbonnier(ry) + 0.1 * (rx * rx + ry * ry))


def point_sets():
    rng = np.random.default_rng(13)
    src = rng.uniform(-1, 1, (N, 2))
    a, t, s = 0.4, np.array([0.3, -0.2]), 1.1
    R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    dst = s * src @ R.T + t
    dst[:4] += rng.uniform(-0.8, 0.8, (4, 2))  # outliers
    return src.astype(np.float32), dst.astype(np.float32)


SRC, DST = point_sets()
PARAMS0 = [0.2, 0.1, 0.0, 1.0]


def evaluate(p):
    xf = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(registration_loss, dim=N, inputs=[wp.array(SRC, dtype=wp.vec2), wp.array(DST, dtype=wp.vec2), xf],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), xf.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(80):
        l, g = evaluate(p)
        p -= 0.001 * g
    print(f"robust loss {l:.4f} angle {p[0]:.3f} t ({p[1]:.3f}, {p[2]:.3f}) scale {p[3]:.3f}")
