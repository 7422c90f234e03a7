"""Calibrating a fleet's fuel model against trips weighted by distance: the program reports the
distance-weighted mean of the squared errors (``np.average(..., weights=KM)``) but seeds the backward pass
with the raw distances, not the distances over their sum: the gradient is the total distance times too
large.  Seed with ``KM / KM.sum()``."""

import numpy as np
import warp as wp

wp.config.quiet = True

TRIPS = 12
KM = np.linspace(5.0, 60.0, TRIPS).astype(np.float32)
LOAD = wp.array(np.linspace(0.2, 1.0, TRIPS).astype(np.float32), dtype=float)
MEASURED = wp.array((0.9 + 2.1 * np.linspace(0.2, 1.0, TRIPS)).astype(np.float32), dtype=float)


@wp.kernel
def squared_error(coef: wp.array(dtype=float), load: wp.array(dtype=float), measured: wp.array(dtype=float),
                  err: wp.array(dtype=float)):
    i = wp.tid()
    d = coef[0] + coef[1] * load[i] - measured[i]
    err[i] = d * d


coef = wp.array([1.0, 1.8], dtype=float, requires_grad=True)
err = wp.zeros(TRIPS, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(squared_error, dim=TRIPS, inputs=[coef, LOAD, MEASURED], outputs=[err])
loss = float(np.average(err.numpy(), weights=KM))
tape.backward(grads={err: wp.array(KM, dtype=float)})  # expect: TW204
print("weighted loss", loss, "gradient", coef.grad.numpy())
