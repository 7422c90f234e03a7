"""Learn attention logits so that the softmax-pooled feature hits a target.

The softmax denominator is computed by `_pooling.normaliser` with
`wp.utils.array_sum`, which no tape records: the gradient with respect to
the logits misses the denominator's dependence on them.
"""

import numpy as np
import warp as wp

from _pooling import exp_scores, normaliser

N = 12


@wp.kernel
def pooled_error(e: wp.array(dtype=float), total: wp.array(dtype=float), feat: wp.array(dtype=float),
                 target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, e[i] / total[0] * feat[i])
    if i == 0:
        wp.atomic_add(loss, 0, -target)


@wp.kernel
def square(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = x[0] * x[0]


rng = np.random.default_rng(7)
feat = wp.array(rng.uniform(-1.0, 1.0, N).astype(np.float32))
logits = wp.zeros(N, dtype=float, requires_grad=True)
for it in range(3):
    e = wp.zeros(N, dtype=float, requires_grad=True)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(exp_scores, dim=N, inputs=[logits], outputs=[e])
        normaliser(e, total)
        wp.launch(pooled_error, dim=N, inputs=[e, total, feat, 0.5], outputs=[err])
        wp.launch(square, dim=1, inputs=[err], outputs=[loss])
    tape.backward(loss)
    logits.assign(logits.numpy() - 0.5 * logits.grad.numpy())
    tape.zero()
    print(it, "loss", loss.numpy()[0])
