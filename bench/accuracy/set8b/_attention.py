"""Single-head dot-product attention over a handful of tokens."""

import warp as wp

T = 4  # tokens
D = 3  # model width
INV_SQRT_D = 0.5773502691896258


@wp.kernel
def project(x: wp.array2d(dtype=float), W: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    t, a = wp.tid()
    s = float(0.0)
    for b in range(D):
        s += W[a * D + b] * x[t, b]
    out[t, a] = s


@wp.kernel
def attn_scores(q: wp.array2d(dtype=float), k: wp.array2d(dtype=float), scores: wp.array2d(dtype=float)):
    t, u = wp.tid()
    s = float(0.0)
    for a in range(D):
        s += q[t, a] * k[u, a]
    scores[t, u] = s * INV_SQRT_D


@wp.kernel
def attn_apply(scores: wp.array2d(dtype=float), v: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    t, a = wp.tid()
    m = scores[t, 0]
    for u in range(1, T):
        m = wp.max(m, scores[t, u])
    z = float(0.0)
    acc = float(0.0)
    for u in range(T):
        e = wp.exp(scores[t, u] - m)
        z += e
        acc += e * v[u, a]
    out[t, a] = acc / z


@wp.kernel
def mse2d(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = a[i, j] - b[i, j]
    wp.atomic_add(loss, 0, r * r * inv_n)
