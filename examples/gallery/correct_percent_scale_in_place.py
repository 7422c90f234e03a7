"""Crop yield calibration against survey percentages: the misfit kernel copies the survey row into a work
array and converts it from percent in place with ``*= 0.01``.  The factor is a number fixed at compile time,
so no adjoint needs the value before the update; the gradient of the growth rate is exact."""

import numpy as np
import warp as wp

wp.config.quiet = True

SURVEY_PCT = np.array([12.0, 31.0, 55.0, 74.0, 86.0], dtype=np.float32)
DAYS = np.array([10.0, 20.0, 30.0, 40.0, 50.0], dtype=np.float32)


@wp.kernel
def logistic_misfit(rate: wp.array(dtype=float), days: wp.array(dtype=float), pct: wp.array(dtype=float),
                    obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    obs[i] = pct[i]
    obs[i] *= 0.01  # note: TW104
    frac = 1.0 / (1.0 + wp.exp(-rate[0] * (days[i] - rate[1])))
    d = frac - obs[i]
    wp.atomic_add(loss, 0, d * d)


rate = wp.array([0.1, 30.0], dtype=float, requires_grad=True)
obs = wp.zeros(5, dtype=float)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(logistic_misfit, dim=5, inputs=[rate, wp.array(DAYS, dtype=float), wp.array(SURVEY_PCT, dtype=float)],
              outputs=[obs, loss])
tape.backward(loss)
print(float(loss.numpy()[0]), rate.grad.numpy())
