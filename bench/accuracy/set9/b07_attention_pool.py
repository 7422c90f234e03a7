"""Single-query attention pooling: gradient of the pooled-feature error w.r.t. the query vector."""

import numpy as np
import warp as wp

from _nn_ops import dot_logits, exp_scores, reduce_sum, squared_error, weighted_pool

N, D = 6, 4
rng = np.random.default_rng(11)
KEYS = (rng.normal(size=(N, D)) + 0.5).astype(np.float32)
VALUES = (rng.normal(size=(N, D)) + 1.5).astype(np.float32)
TARGET = VALUES[2] * 0.7 + VALUES[4] * 0.3
PARAMS0 = np.array([0.3, -0.5, 0.8, 0.1])


def pool(query, keys, values, pooled):
    logits = wp.zeros(N, dtype=float, requires_grad=True)
    scores = wp.zeros(N, dtype=float, requires_grad=True)
    denom = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(dot_logits, dim=N, inputs=[keys, query], outputs=[logits])
    wp.launch(exp_scores, dim=N, inputs=[logits, float(np.sqrt(D))], outputs=[scores])
    wp.utils.array_sum(scores, out=denom)  # expect: truncation
    wp.launch(weighted_pool, dim=(N, D), inputs=[scores, denom, values], outputs=[pooled])
    return scores


def evaluate(p):
    query = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    keys = wp.array(KEYS, dtype=float)
    values = wp.array(VALUES, dtype=float)
    target = wp.array(TARGET, dtype=float)
    pooled = wp.zeros(D, dtype=float, requires_grad=True)
    err = wp.zeros(D, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        pool(query, keys, values, pooled)
        wp.launch(squared_error, dim=D, inputs=[pooled, target], outputs=[err])
        wp.launch(reduce_sum, dim=D, inputs=[err], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), query.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"pooled error {loss:.5f}  d/dquery {np.round(grad, 5)}")
