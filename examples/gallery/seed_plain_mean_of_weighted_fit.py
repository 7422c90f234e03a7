"""Strain-gauge calibration where each gauge's residual is weighted by its reliability on the host
(``np.sum(w * r) / np.sum(w)``), but the backward pass is seeded with a plain mean (1/N over the residuals):
the gradient is that of another objective than the one the program reports and minimises."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 24
RELIABILITY = np.linspace(0.2, 3.0, N).astype(np.float32)


@wp.kernel
def residual(gain: wp.array(dtype=float), strain: wp.array(dtype=float), reading: wp.array(dtype=float),
             r: wp.array(dtype=float)):
    i = wp.tid()
    d = gain[0] * strain[i] + gain[1] - reading[i]
    r[i] = d * d


strain = wp.array(np.linspace(-1.0, 1.0, N).astype(np.float32))
reading = wp.array((2.1 * np.linspace(-1.0, 1.0, N) + 0.3).astype(np.float32))
gain = wp.array([1.0, 0.0], dtype=float, requires_grad=True)
for it in range(4):
    r = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=N, inputs=[gain, strain, reading], outputs=[r])
    values = r.numpy().astype(np.float64)
    loss = float(np.sum(RELIABILITY * values) / np.sum(RELIABILITY))
    tape.backward(grads={r: wp.full(N, 1.0 / N, dtype=float)})  # expect: TW204
    print(it, "weighted misfit", loss)
    gain.assign(gain.numpy() - 0.3 * gain.grad.numpy())
    tape.zero()
