# tapewatch-test: --check-launches
"""Correct look-alike of ensemble_ratio_dynamic_mean.py: the ensemble mean is summed in a loop whose trip
count is a runtime value, and Warp's backward pass sees the mean as it was before the loop (zero).  Here
only deviations from the mean are squared, and the error cancels exactly (the spread does not depend on
where the mean is): the lint still names the loop, and the per-launch check measures that this run's
gradients are right, so the finding is information."""

import numpy as np
import warp as wp

M = 6
T = 4


@wp.kernel
def integrate(x: wp.array2d(dtype=float), drive: wp.array(dtype=float), x_out: wp.array2d(dtype=float)):
    t, m = wp.tid()
    x_out[t, m] = x[t, m] + 0.1 * wp.sin(drive[0] * x[t, m] + float(m))


@wp.kernel
def spread(x: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    t, m = wp.tid()
    members = x.shape[1]
    mean = float(0.0)
    for k in range(members):  # note: TW303  # lint: TW303
        mean += x[t, k]
    mean = mean / float(members)
    d = x[t, m] - mean
    wp.atomic_add(out, 0, d * d)


rng = np.random.default_rng(3)
x0 = wp.array(rng.normal(1.0, 0.3, size=(T, M)).astype(np.float32), requires_grad=True)
drive = wp.array([1.5], dtype=float, requires_grad=True)
x1 = wp.zeros((T, M), dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(integrate, dim=(T, M), inputs=[x0, drive], outputs=[x1])
    wp.launch(spread, dim=(T, M), inputs=[x1], outputs=[out])
tape.backward(out)
print("spread", out.numpy()[0], "d spread / d drive", drive.grad.numpy())
