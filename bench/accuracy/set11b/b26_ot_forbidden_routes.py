"""Entropic optimal transport between depots and customers where some
routes are closed (mask = 0): the depots' positions are optimised against
the full entropic objective <P, C> + eps * sum P log P."""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 5
N = 6
EPS = 0.1
ITERS = 12
CUST = np.array([[0.1, 0.2], [0.9, 0.1], [0.5, 0.9], [0.2, 0.7], [0.8, 0.6], [0.5, 0.4]], dtype=np.float32)
MASK = np.ones((M, N), dtype=np.float32)
MASK[0, 1] = MASK[1, 2] = MASK[3, 4] = MASK[4, 0] = 0.0
PARAMS0 = [0.2, 0.3, 0.7, 0.2, 0.5, 0.7, 0.3, 0.5, 0.6, 0.5]


@wp.kernel
def masked_gibbs(depots: wp.array(dtype=wp.vec2), cust: wp.array(dtype=wp.vec2), mask: wp.array2d(dtype=float),
                 eps: float, K: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = depots[i] - cust[j]
    c = wp.dot(d, d)
    C[i, j] = c
    K[i, j] = mask[i, j] * wp.exp(-c / eps)


@wp.kernel
def row_update(K: wp.array2d(dtype=float), v: wp.array(dtype=float), u: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(N):
        s += K[i, j] * v[j]
    u[i] = (1.0 / float(M)) / s


@wp.kernel
def col_update(K: wp.array2d(dtype=float), u: wp.array(dtype=float), v: wp.array(dtype=float)):
    j = wp.tid()
    s = float(0.0)
    for i in range(M):
        s += K[i, j] * u[i]
    v[j] = (1.0 / float(N)) / s


@wp.kernel
def entropic_objective(u: wp.array(dtype=float), K: wp.array2d(dtype=float), v: wp.array(dtype=float),
                       C: wp.array2d(dtype=float), eps: float, obj: wp.array(dtype=float)):
    i, j = wp.tid()
    p = u[i] * K[i, j] * v[j]
    h = wp.where(p > 0.0, p * wp.log(p), 0.0)  # expect: nonfinite
    wp.atomic_add(obj, 0, p * C[i, j] + eps * h)


def objective_and_grad(p, requires_grad=True):
    depots = wp.array(np.asarray(p, dtype=np.float32).reshape(M, 2), dtype=wp.vec2, requires_grad=requires_grad)
    cust = wp.array(CUST, dtype=wp.vec2)
    mask = wp.array(MASK, dtype=float)
    K = wp.zeros((M, N), dtype=float, requires_grad=requires_grad)
    C = wp.zeros((M, N), dtype=float, requires_grad=requires_grad)
    obj = wp.zeros(1, dtype=float, requires_grad=requires_grad)
    tape = wp.Tape()
    with tape:
        wp.launch(masked_gibbs, dim=(M, N), inputs=[depots, cust, mask, EPS], outputs=[K, C])
        v = wp.ones(N, dtype=float, requires_grad=requires_grad)
        for _ in range(ITERS):
            u = wp.zeros(M, dtype=float, requires_grad=requires_grad)
            wp.launch(row_update, dim=M, inputs=[K, v], outputs=[u])
            v = wp.zeros(N, dtype=float, requires_grad=requires_grad)
            wp.launch(col_update, dim=N, inputs=[K, u], outputs=[v])
        wp.launch(entropic_objective, dim=(M, N), inputs=[u, K, v, C, EPS], outputs=[obj])
    tape.backward(obj)
    return float(obj.numpy()[0]), depots.grad.numpy().reshape(-1).copy()


def evaluate(p):
    return objective_and_grad(p)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.2 * g
        print(f"iter {it} entropic cost {l:.5f}")
