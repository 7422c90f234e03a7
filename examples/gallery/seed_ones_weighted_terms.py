"""A regularised curve fit whose loss terms are weighted on the host, seeded with ones.

The kernel accumulates three terms (data, smoothness, length); the solver
method weights them with `self.weights` to form the objective it reports and
line-searches on, but seeds the backward pass with ones: the gradient is
that of the unweighted sum, dominated by the regulariser.
"""

import numpy as np
import warp as wp

N = 24


@wp.kernel
def curve_terms(y: wp.array(dtype=float), data: wp.array(dtype=float), terms: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - data[i]
    wp.atomic_add(terms, 0, d * d)
    if i > 0:
        s = y[i] - y[i - 1]
        wp.atomic_add(terms, 1, s * s)
        wp.atomic_add(terms, 2, wp.sqrt(1.0 + s * s))


class CurveFit:
    def __init__(self, data):
        self.data = wp.array(data, dtype=float)
        self.y = wp.zeros(N, dtype=float, requires_grad=True)
        self.weights = np.array([1.0, 0.5, 0.02], dtype=np.float32)

    def step(self, lr):
        terms = wp.zeros(3, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(curve_terms, dim=N, inputs=[self.y, self.data], outputs=[terms])
        tape.backward(grads={terms: wp.ones(3, dtype=float)})  # expect: TW204
        objective = float(np.dot(self.weights, terms.numpy()))
        self.y.assign(self.y.numpy() - lr * self.y.grad.numpy())
        tape.zero()
        return objective


fit = CurveFit(np.sin(np.linspace(0.0, 3.0, N)).astype(np.float32))
for it in range(3):
    print(it, "objective", fit.step(0.05))
