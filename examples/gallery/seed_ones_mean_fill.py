"""A per-element loss seeded with ones while the program reports its mean.

`residual.grad.fill_(1.0)` differentiates the *sum* of the N residuals, but
the loop logs and tunes its learning rate against their mean: every step is
N times too large.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def residual(x: wp.array(dtype=float), target: wp.array(dtype=float), r: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    r[i] = d * d


x = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
target = wp.full(N, 0.5, dtype=float)
r = wp.zeros(N, dtype=float, requires_grad=True)
for it in range(3):
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=N, inputs=[x, target], outputs=[r])
    loss = float(r.numpy().mean())
    r.grad.fill_(1.0)  # expect: TW204
    tape.backward()
    x.assign(x.numpy() - 0.5 * x.grad.numpy())
    tape.zero()
    print(it, "mean loss", loss)
