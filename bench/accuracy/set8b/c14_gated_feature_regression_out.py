# correct: gains written to a separate buffer; in-place += shift and local *= are differentiable
"""Regress a 2D -> 1D function with tanh features scaled by learned per-feature gains.

Features are centred in place by a fixed offset before the gains are applied.
"""

import numpy as np
import warp as wp

from _layers import act_tanh, make_dense

wp.config.quiet = True

F = 6
N = 20
SIZES = [("W1", 2 * F), ("b1", F), ("gain", F), ("w2", F), ("b2", 1)]


def problem():
    rng = np.random.default_rng(31)
    x = rng.uniform(-1, 1, (N, 2)).astype(np.float32)
    t = (np.sin(2 * x[:, 0]) * np.cos(x[:, 1]) + 0.3 * x[:, 1]).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(t, dtype=float)


def unpack(p):
    p = np.asarray(p, dtype=np.float32)
    out, off = {}, 0
    for name, n in SIZES:
        out[name] = wp.array(p[off:off + n], dtype=float, requires_grad=True)
        off += n
    return out


hidden_layer = make_dense(2, act_tanh)


@wp.kernel
def readout(h: wp.array2d(dtype=float), w: wp.array(dtype=float), b: wp.array(dtype=float),
            y: wp.array(dtype=float)):
    n = wp.tid()
    s = b[0]
    for j in range(6):
        s += w[j] * h[n, j]
    y[n] = s


@wp.kernel
def mse1d(y: wp.array(dtype=float), t: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    r = y[n] - t[n]
    wp.atomic_add(loss, 0, r * r * inv_n)


@wp.kernel
def centre_features(h: wp.array2d(dtype=float), offset: float):
    n, j = wp.tid()
    h[n, j] -= offset


@wp.kernel
def gated(h: wp.array2d(dtype=float), gain: wp.array(dtype=float), hg: wp.array2d(dtype=float)):
    n, j = wp.tid()
    s = gain[j]
    s *= 2.0
    hg[n, j] = 0.5 * s * h[n, j]


def loss_and_grad(params, x, t):
    h = wp.zeros((N, F), dtype=float, requires_grad=True)
    y = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(hidden_layer, dim=(N, F), inputs=[x, params["W1"], params["b1"]], outputs=[h])
        wp.launch(centre_features, dim=(N, F), inputs=[h, 0.1])
        hg = wp.zeros_like(h)
        wp.launch(gated, dim=(N, F), inputs=[h, params["gain"]], outputs=[hg])
        wp.launch(readout, dim=N, inputs=[hg, params["w2"], params["b2"]], outputs=[y])
        wp.launch(mse1d, dim=N, inputs=[y, t, 1.0 / N], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([params[k].grad.numpy() for k, _ in SIZES]).astype(np.float64)
    return float(loss.numpy()[0]), g


PARAMS0 = np.concatenate([np.random.default_rng(32).normal(0, 0.8, 3 * F), np.linspace(0.5, 1.5, F),
                          np.random.default_rng(33).normal(0, 0.5, F), [0.0]])
FD_MAX_COMPONENTS = 31


def evaluate(p):
    x, t = problem()
    return loss_and_grad(unpack(p), x, t)


if __name__ == "__main__":
    x, t = problem()
    p = PARAMS0.copy()
    for it in range(50):
        loss, g = loss_and_grad(unpack(p), x, t)
        p -= 0.1 * g
        if it % 10 == 0:
            print(f"iter {it:2d} mse {loss:.5f}")
    print("gains", np.round(p[3 * F:4 * F], 3))
