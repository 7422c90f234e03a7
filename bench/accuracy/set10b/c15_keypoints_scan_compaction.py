# correct: inlier residuals are compacted into a dense list inside a differentiated kernel, but the slots come from an exclusive scan computed outside the tape, not from an atomic's return value
"""Keypoint-based 2-D similarity alignment with inlier compaction.

Putative matches are screened by a ratio test outside the tape; the
surviving matches are compacted (exclusive prefix sum gives each inlier its
slot) and a Cauchy loss over the compacted residuals is differentiated
w.r.t. (log-scale, angle, tx, ty).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 32
CAUCHY = 0.05


@wp.func
def transform(p: wp.vec2, prm: wp.array(dtype=float)):
    s = wp.exp(prm[0])
    c = wp.cos(prm[1])
    sn = wp.sin(prm[1])
    return wp.vec2(s * (c * p[0] - sn * p[1]) + prm[2], s * (sn * p[0] + c * p[1]) + prm[3])


@wp.kernel
def screen(score: wp.array(dtype=float), inlier: wp.array(dtype=int), n_in: wp.array(dtype=int)):
    i = wp.tid()
    if score[i] < 0.7:
        inlier[i] = 1
        wp.atomic_add(n_in, 0, 1)
    else:
        inlier[i] = 0


@wp.kernel
def compact_residuals(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), inlier: wp.array(dtype=int),
                      slot_of: wp.array(dtype=int), res: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    if inlier[i] == 1:
        res[slot_of[i]] = transform(src[i], prm) - dst[i]


@wp.kernel
def cauchy(res: wp.array(dtype=wp.vec2), n_in: wp.array(dtype=int), loss: wp.array(dtype=float)):
    k = wp.tid()
    if k < n_in[0]:
        r2 = wp.dot(res[k], res[k]) / (CAUCHY * CAUCHY)
        wp.atomic_add(loss, 0, wp.log(1.0 + r2))


def matches(seed=2):
    rng = np.random.default_rng(seed)
    src = rng.uniform(-1, 1, (N, 2))
    s, th, t = 1.2, -0.3, np.array([0.1, 0.25])
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    dst = s * src @ R.T + t + rng.normal(0, 0.01, src.shape)
    score = rng.uniform(0.2, 0.6, N)
    bad = rng.choice(N, 8, replace=False)
    dst[bad] = rng.uniform(-1.5, 1.5, (8, 2))
    score[bad[:6]] = rng.uniform(0.75, 0.95, 6)  # the ratio test catches most outliers
    return (wp.array(src.astype(np.float32), dtype=wp.vec2), wp.array(dst.astype(np.float32), dtype=wp.vec2),
            wp.array(score.astype(np.float32), dtype=float))


SRC, DST, SCORE = matches()
PARAMS0 = np.array([0.1, -0.2, 0.05, 0.2])


class Aligner:
    def __init__(self):
        self.inlier = wp.zeros(N, dtype=int)
        self.slot_of = wp.zeros(N, dtype=int)
        self.n_in = wp.zeros(1, dtype=int)
        wp.launch(screen, dim=N, inputs=[SCORE], outputs=[self.inlier, self.n_in])
        wp.utils.array_scan(self.inlier, self.slot_of, inclusive=False)

    def loss_and_grad(self, p):
        prm = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
        res = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(compact_residuals, dim=N, inputs=[SRC, DST, prm, self.inlier, self.slot_of], outputs=[res])
            wp.launch(cauchy, dim=N, inputs=[res, self.n_in], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


_al = Aligner()


def evaluate(p):
    return _al.loss_and_grad(p)


if __name__ == "__main__":
    al = Aligner()
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = al.loss_and_grad(p)
        p -= 0.0002 * g
        if it % 50 == 0:
            print(f"iter {it:3d} loss {loss:.4f} inliers {al.n_in.numpy()[0]} params {np.round(p, 3)}")
