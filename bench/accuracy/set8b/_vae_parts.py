"""Encoder / decoder kernels of a tiny variational auto-encoder (latent size 2)."""

import warp as wp

D_IN = 3


@wp.kernel
def encode(x: wp.array2d(dtype=float), W_mu: wp.array(dtype=float), W_lv: wp.array(dtype=float),
           mu: wp.array(dtype=wp.vec2), logvar: wp.array(dtype=wp.vec2)):
    b = wp.tid()
    m0 = float(0.0)
    m1 = float(0.0)
    l0 = float(0.0)
    l1 = float(0.0)
    for d in range(D_IN):
        m0 += W_mu[d] * x[b, d]
        m1 += W_mu[D_IN + d] * x[b, d]
        l0 += W_lv[d] * x[b, d]
        l1 += W_lv[D_IN + d] * x[b, d]
    mu[b] = wp.vec2(m0, m1)
    logvar[b] = wp.vec2(l0, l1)


@wp.kernel
def decode_elbo(x: wp.array2d(dtype=float), mu: wp.array(dtype=wp.vec2), logvar: wp.array(dtype=wp.vec2),
                eps: wp.array(dtype=wp.vec2), W_d: wp.array(dtype=float), b_d: wp.array(dtype=float),
                beta: float, inv_b: float, loss: wp.array(dtype=float)):
    b = wp.tid()
    m = mu[b]
    lv = logvar[b]
    z = m + wp.cw_mul(wp.vec2(wp.exp(0.5 * lv[0]), wp.exp(0.5 * lv[1])), eps[b])
    rec = float(0.0)
    for d in range(D_IN):
        xh = wp.tanh(W_d[2 * d] * z[0] + W_d[2 * d + 1] * z[1] + b_d[d])
        r = xh - x[b, d]
        rec += r * r
    kl = -0.5 * (2.0 + lv[0] + lv[1] - wp.dot(m, m) - wp.exp(lv[0]) - wp.exp(lv[1]))
    wp.atomic_add(loss, 0, (rec + beta * kl) * inv_b)
