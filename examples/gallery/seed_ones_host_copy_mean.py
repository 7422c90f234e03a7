"""Gauge calibration: per-gauge squared errors are copied to the host once (`errs = err.numpy()`),
their mean is the objective the program reports and steps on, but the backward pass is seeded with
ones over the gauges: the gradient is that of the sum, G times too large."""

import numpy as np
import warp as wp

G = 12


@wp.kernel
def gauge_error(gain: wp.array(dtype=float), raw: wp.array(dtype=float), truth: wp.array(dtype=float),
                err: wp.array(dtype=float)):
    g = wp.tid()
    reading = gain[0] * raw[g] + gain[1] * raw[g] * raw[g]
    d = reading - truth[g]
    err[g] = d * d


rng = np.random.default_rng(8)
raw_np = rng.uniform(0.5, 2.0, G).astype(np.float32)
raw = wp.array(raw_np)
truth = wp.array((1.3 * raw_np + 0.05 * raw_np**2).astype(np.float32))
gain = wp.array([1.0, 0.0], dtype=float, requires_grad=True)
for step in range(3):
    err = wp.zeros(G, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gauge_error, dim=G, inputs=[gain, raw, truth], outputs=[err])
    errs = err.numpy()
    objective = float(errs.mean())
    tape.backward(grads={err: wp.ones(G, dtype=float)})  # expect: TW204
    gain.assign(gain.numpy() - 0.1 * gain.grad.numpy())
    tape.zero()
    print("step", step, "mean squared error", objective)
