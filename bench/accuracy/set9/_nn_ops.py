"""Small building blocks for attention-style pooling over a set of feature vectors."""

import warp as wp


@wp.kernel
def dot_logits(keys: wp.array2d(dtype=float), query: wp.array(dtype=float), logits: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(keys.shape[1]):
        s += keys[i, j] * query[j]
    logits[i] = s


@wp.kernel
def exp_scores(logits: wp.array(dtype=float), temperature: float, scores: wp.array(dtype=float)):
    i = wp.tid()
    scores[i] = wp.exp(logits[i] / temperature)


@wp.kernel
def reduce_sum(values: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, values[i])


@wp.kernel
def weighted_pool(
    scores: wp.array(dtype=float),
    denom: wp.array(dtype=float),
    values: wp.array2d(dtype=float),
    pooled: wp.array(dtype=float),
):
    i, j = wp.tid()
    wp.atomic_add(pooled, j, scores[i] / denom[0] * values[i, j])


@wp.kernel
def squared_error(a: wp.array(dtype=float), b: wp.array(dtype=float), err: wp.array(dtype=float)):
    j = wp.tid()
    d = a[j] - b[j]
    err[j] = d * d
