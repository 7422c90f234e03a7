# correct: diagnostics take a .numpy() view of a taped input between recording and backward, but only read it (the centring makes a new array)
"""2-D similarity registration (scale, rotation, translation) of a contour to
its transformed copy, with Welsch-robustified point residuals.  Diagnostics
print the centred spread of the source between the passes.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 30
C_WELSCH = 0.3


@wp.kernel
def welsch_residuals(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), params: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.exp(params[0])
    c = wp.cos(params[1])
    sn = wp.sin(params[1])
    R = wp.mat22(c, -sn, sn, c)
    p = s * (R * src[i]) + wp.vec2(params[2], params[3])
    d = p - dst[i]
    wp.atomic_add(loss, 0, 1.0 - wp.exp(-wp.dot(d, d) / (2.0 * C_WELSCH * C_WELSCH)))


def make_pair(seed=1):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2 * np.pi, N, endpoint=False)
    src = np.stack([np.cos(t) + 0.3 * np.cos(2 * t), 0.7 * np.sin(t)], 1) + np.array([1.0, 0.5])
    s, th, tr = 1.3, 0.5, np.array([0.2, -0.4])
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    dst = s * src @ R.T + tr + rng.normal(0, 0.01, src.shape)
    return wp.array(src.astype(np.float32), dtype=wp.vec2), wp.array(dst.astype(np.float32), dtype=wp.vec2)


SRC, DST = make_pair()
PARAMS0 = np.array([0.15, 0.35, 0.1, -0.2])


class SimilarityFit:
    def __init__(self):
        self.spread = []

    def loss_and_grad(self, p):
        params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(welsch_residuals, dim=N, inputs=[SRC, DST, params], outputs=[loss])
        pts = SRC.numpy()
        centred = pts - pts.mean(axis=0)
        self.spread.append(float(np.sqrt((centred ** 2).sum(1).mean())))
        tape.backward(loss)
        return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


_fit = SimilarityFit()


def evaluate(p):
    return _fit.loss_and_grad(p)


if __name__ == "__main__":
    fit = SimilarityFit()
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = fit.loss_and_grad(p)
        p -= 0.002 * g
        if it % 50 == 0:
            print(f"iter {it:3d} loss {loss:.4f} scale {np.exp(p[0]):.3f} angle {p[1]:.3f} spread {fit.spread[-1]:.3f}")
