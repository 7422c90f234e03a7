# correct: softplus uses the double-where guard, so the rejected branch stays finite for large margins
"""Learning to rank: a linear scorer trained with a softplus pairwise ranking loss.

Raw feature vectors are used as logged (no normalisation); each training pair
(pos, neg) asks for score(pos) > score(neg) + margin.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_ITEMS = 8
MARGIN = 1.0


@wp.func
def softplus(v: float):
    return wp.where(v > 20.0, v, wp.log(1.0 + wp.exp(wp.min(v, 20.0))))


@wp.kernel
def score(feat: wp.array(dtype=wp.vec4), w: wp.array(dtype=wp.vec4), s: wp.array(dtype=float)):
    i = wp.tid()
    s[i] = wp.dot(w[0], feat[i])


@wp.kernel
def ranking_loss(s: wp.array(dtype=float), pairs: wp.array(dtype=wp.vec2i), inv_p: float, loss: wp.array(dtype=float)):
    k = wp.tid()
    pr = pairs[k]
    wp.atomic_add(loss, 0, softplus(MARGIN - (s[pr[0]] - s[pr[1]])) * inv_p)


def logged_data():
    rng = np.random.default_rng(61)
    feat = rng.normal(size=(N_ITEMS, 4))
    feat[5] = [-60.0, 90.0, -30.0, 2.0]  # a logging glitch left one item with huge raw features
    rel = feat[:, 0] - 0.5 * feat[:, 1] + 0.2 * rng.normal(size=N_ITEMS)
    pairs = [(i, j) for i in range(N_ITEMS) for j in range(N_ITEMS) if rel[i] > rel[j] + 0.3][:16]
    return (wp.array(feat.astype(np.float32), dtype=wp.vec4),
            wp.array(np.array(pairs, dtype=np.int32), dtype=wp.vec2i), len(pairs))


def loss_and_grad(p, feat, pairs, n_pairs):
    w = wp.array([np.asarray(p, dtype=np.float32)], dtype=wp.vec4, requires_grad=True)
    s = wp.zeros(N_ITEMS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(score, dim=N_ITEMS, inputs=[feat, w], outputs=[s])
        wp.launch(ranking_loss, dim=n_pairs, inputs=[s, pairs, 1.0 / n_pairs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), w.grad.numpy()[0].astype(np.float64)


PARAMS0 = np.array([0.2, 1.5, 0.3, -0.1])


def evaluate(p):
    return loss_and_grad(p, *logged_data())


if __name__ == "__main__":
    data = logged_data()
    p = PARAMS0.copy()
    for it in range(20):
        loss, g = loss_and_grad(p, *data)
        p -= 0.05 * g
        if it % 5 == 0:
            print(f"iter {it:2d} ranking loss {loss:.4f} |grad| {np.linalg.norm(g):.4f}")
    print("w", p)
