"""Exposure fit with a backtracking line search whose score is a mean computed in a helper module.

The backward pass is seeded with ones over the H*W per-pixel errors (their
sum), while `_fit_metrics.score` -- the number the line search compares --
is their mean: the search direction is H*W times the gradient of the score.
"""

import numpy as np
import warp as wp

from _fit_metrics import score

H, W = 8, 8
rng = np.random.default_rng(3)
SRC = rng.uniform(0.1, 1.0, (H, W)).astype(np.float32)
DST = (1.3 * SRC + 0.05).astype(np.float32)


@wp.kernel
def exposure_error(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float), p: wp.array(dtype=float),
                   err: wp.array2d(dtype=float)):
    y, x = wp.tid()
    r = p[0] * src[y, x] + p[1] - dst[y, x]
    err[y, x] = r * r


def score_and_grad(params):
    p = wp.array(params, dtype=float, requires_grad=True)
    err = wp.zeros((H, W), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(exposure_error, dim=(H, W), inputs=[wp.array(SRC), wp.array(DST), p], outputs=[err])
    tape.backward(grads={err: wp.ones((H, W), dtype=float)})  # expect: TW204
    return score(err), p.grad.numpy().copy()


params = np.array([1.0, 0.0], dtype=np.float32)
f, g = score_and_grad(params)
for it in range(3):
    step = 1.0
    while True:
        trial = (params - step * g).astype(np.float32)
        f_trial, g_trial = score_and_grad(trial)
        if f_trial < f or step < 1e-4:
            break
        step *= 0.5
    params, f, g = trial, f_trial, g_trial
    print(it, "score", f)
