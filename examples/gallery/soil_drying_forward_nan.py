"""Soil drying: each cell loses water at a rate k*sqrt(moisture) and exchanges with its neighbours.  The
driest cells overshoot below zero within a few steps, and sqrt of a negative moisture is NaN in the
forward pass.  The probe at the wet end still reads finite values, so the loss looks fine, but the
gradient through the NaN cells is not: the sqrt is the line to change (the look-alike keeps its
argument non-negative).  Not a divergence of the step size: the forward NaN is born at that operation."""

import numpy as np
import warp as wp

N = 24
STEPS = 6
DT = 0.4


@wp.kernel
def dry(m: wp.array(dtype=float), k: wp.array(dtype=float), m_out: wp.array(dtype=float)):
    i = wp.tid()
    left = m[wp.max(i - 1, 0)]
    right = m[wp.min(i + 1, N - 1)]
    loss_rate = k[0] * wp.sqrt(m[i])  # expect: TW403
    m_out[i] = m[i] + DT * (0.05 * (left - 2.0 * m[i] + right) - loss_rate)


@wp.kernel
def probe(m: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = m[N - 1] - target
    loss[0] = d * d


k = wp.array([0.3], dtype=float, requires_grad=True)
m = wp.array(np.linspace(0.02, 1.0, N, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for _ in range(STEPS):
        nxt = wp.empty_like(m)
        wp.launch(dry, dim=N, inputs=[m, k], outputs=[nxt])
        m = nxt
    wp.launch(probe, dim=1, inputs=[m, 0.5], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "d loss / d k", k.grad.numpy())
