"""Attention pooling over a point set (a tiny Set-Transformer-style readout).

Each point gets a score a . tanh(W x + b); the pooled feature is the
softmax-weighted average of U x.  The model is fitted so that the pooled
vector of several point sets matches their targets.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 16  # points per set
H = 4
N_SETS = 3


@wp.kernel
def point_scores(x: wp.array(dtype=wp.vec2), W: wp.array(dtype=wp.vec2), b: wp.array(dtype=float), a: wp.array(dtype=float),
                 e: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(H):
        s += a[j] * wp.tanh(wp.dot(W[j], x[i]) + b[j])
    e[i] = wp.exp(s)


@wp.kernel
def reduce_sum(v: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, v[wp.tid()])


@wp.kernel
def pool(x: wp.array(dtype=wp.vec2), e: wp.array(dtype=float), denom: wp.array(dtype=float), U: wp.array(dtype=wp.mat22),
         pooled: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    wp.atomic_add(pooled, 0, (e[i] / denom[0]) * (U[0] * x[i]))


@wp.kernel
def sq_err(pooled: wp.array(dtype=wp.vec2), target: wp.vec2, err: wp.array(dtype=float)):
    d = pooled[0] - target
    err[0] = wp.dot(d, d)


class AttentionPool:
    def __init__(self, flat):
        f = np.asarray(flat, np.float32)
        self.W = wp.array(f[: 2 * H].reshape(H, 2), dtype=wp.vec2, requires_grad=True)
        self.b = wp.array(f[2 * H: 3 * H], dtype=float, requires_grad=True)
        self.a = wp.array(f[3 * H: 4 * H], dtype=float, requires_grad=True)
        self.U = wp.array(f[4 * H:].reshape(1, 2, 2), dtype=wp.mat22, requires_grad=True)

    def params(self):
        return [self.W, self.b, self.a, self.U]

    def pooled(self, x):
        e = wp.zeros(M, dtype=float, requires_grad=True)
        denom = wp.zeros(1, dtype=float, requires_grad=True)
        out = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
        wp.launch(point_scores, dim=M, inputs=[x, self.W, self.b, self.a], outputs=[e])
        wp.utils.array_sum(e, out=denom)  # expect: truncation
        wp.launch(pool, dim=M, inputs=[x, e, denom, self.U], outputs=[out])
        return out

    def loss_and_grad(self, sets, targets):
        errs = wp.zeros(N_SETS, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for s in range(N_SETS):
                out = self.pooled(sets[s])
                wp.launch(sq_err, dim=1, inputs=[out, wp.vec2(*targets[s])], outputs=[errs[s:s + 1]])
            wp.launch(reduce_sum, dim=N_SETS, inputs=[errs], outputs=[loss])
        tape.backward(loss)
        g = np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)
        return float(loss.numpy()[0]), g


def make_sets(seed=0):
    rng = np.random.default_rng(seed)
    sets, targets = [], []
    for _ in range(N_SETS):
        pts = rng.normal(size=(M, 2)).astype(np.float32)
        sets.append(wp.array(pts, dtype=wp.vec2))
        w = np.exp(2.0 * pts[:, 0])
        targets.append((w[:, None] * pts).sum(0) / w.sum() * np.array([1.0, -0.5]))
    return sets, targets


SETS, TARGETS = make_sets()
PARAMS0 = np.concatenate([np.random.default_rng(1).normal(0, 0.7, 4 * H), [0.8, 0.1, -0.1, 0.6]])


def evaluate(p):
    return AttentionPool(p).loss_and_grad(SETS, TARGETS)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 0.1 * g
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.5f}")
