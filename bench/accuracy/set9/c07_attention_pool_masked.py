# correct: attention pooling whose softmax denominator is a taped reduction; wp.utils.array_sum only counts a constant mask inside the tape
"""Masked single-query attention pooling with a logit penalty: gradient w.r.t. the query vector."""

import numpy as np
import warp as wp

from _nn_ops import dot_logits, exp_scores, reduce_sum, squared_error, weighted_pool

N, D = 6, 4
rng = np.random.default_rng(11)
KEYS = (rng.normal(size=(N, D)) + 0.5).astype(np.float32)
VALUES = (rng.normal(size=(N, D)) + 1.5).astype(np.float32)
MASK = np.array([1, 1, 1, 0, 1, 1], dtype=np.float32)
TARGET = VALUES[2] * 0.7 + VALUES[4] * 0.3
PARAMS0 = np.array([0.3, -0.5, 0.8, 0.1])


@wp.kernel
def apply_mask(scores: wp.array(dtype=float), mask: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = scores[i] * mask[i]


@wp.kernel
def masked_logit_penalty(
    logits: wp.array(dtype=float), mask: wp.array(dtype=float), active: wp.array(dtype=float), weight: float,
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    wp.atomic_add(loss, 0, weight * mask[i] * logits[i] * logits[i] / active[0])


def evaluate(p):
    query = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    keys = wp.array(KEYS, dtype=float)
    values = wp.array(VALUES, dtype=float)
    mask = wp.array(MASK, dtype=float)
    target = wp.array(TARGET, dtype=float)
    logits = wp.zeros(N, dtype=float, requires_grad=True)
    raw = wp.zeros(N, dtype=float, requires_grad=True)
    scores = wp.zeros(N, dtype=float, requires_grad=True)
    denom = wp.zeros(1, dtype=float, requires_grad=True)
    active = wp.zeros(1, dtype=float)
    pooled = wp.zeros(D, dtype=float, requires_grad=True)
    err = wp.zeros(D, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dot_logits, dim=N, inputs=[keys, query], outputs=[logits])
        wp.launch(exp_scores, dim=N, inputs=[logits, float(np.sqrt(D))], outputs=[raw])
        wp.launch(apply_mask, dim=N, inputs=[raw, mask], outputs=[scores])
        wp.launch(reduce_sum, dim=N, inputs=[scores], outputs=[denom])
        wp.launch(weighted_pool, dim=(N, D), inputs=[scores, denom, values], outputs=[pooled])
        wp.launch(squared_error, dim=D, inputs=[pooled, target], outputs=[err])
        wp.launch(reduce_sum, dim=D, inputs=[err], outputs=[loss])
        wp.utils.array_sum(mask, out=active)
        wp.launch(masked_logit_penalty, dim=N, inputs=[logits, mask, active, 0.05], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), query.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"pooled error {loss:.5f}  d/dquery {np.round(grad, 5)}")
