"""Invert a 1-D velocity model from a synthetic trace; the adjoint source is the residual with the wrong sign.

The misfit is `0.5 * sum((OBS - syn)**2)`, whose derivative with respect to
the synthetic trace is `syn - OBS`; the program seeds with
`adj_src = residual` (`OBS - syn`), named in a statement of its own: that
statement is the line to change.
"""

import numpy as np
import warp as wp

N = 12
OBS = np.sin(np.linspace(0.0, 3.0, N)).astype(np.float64)


@wp.kernel
def synth(v: wp.array(dtype=float), syn: wp.array(dtype=float)):
    i = wp.tid()
    syn[i] = wp.sin(float(i) * 0.25 * v[0] / 2.0)


def misfit_and_gradient(v):
    syn = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(synth, dim=N, inputs=[v], outputs=[syn])
    residual = OBS - syn.numpy()
    misfit = 0.5 * float(np.sum(residual ** 2))
    adj_src = residual  # expect: TW204
    tape.backward(grads={syn: wp.array(adj_src.astype(np.float32), dtype=float)})
    g = v.grad.numpy().copy()
    tape.zero()
    return misfit, g


if __name__ == "__main__":
    v = wp.array([1.8], dtype=float, requires_grad=True)
    for _ in range(3):
        m, g = misfit_and_gradient(v)
        v.assign(v.numpy() - 0.01 * np.sign(g))
        print("misfit", m)
