# correct: b06_maize_yield_regression_sgd (the seed is 1/N on every county error, the mean the host reports)
"""Weather-driven maize yield model fitted county by county with SGD.

yield = c0 * GDD + c1 * rain + c2 * rain^2 - c3 * heat^2. The per-county
squared errors come out of a kernel; the host reports their mean (t/ha)^2 and
seeds backward on the error array itself before each warp.optim.SGD step.
"""
import numpy as np
import warp as wp
import warp.optim

from _cropdata import N_COUNTY, county_table

wp.config.quiet = True

X, Y = county_table()
C0 = np.array([2.5, 6.0, -4.0, 1.0], dtype=np.float32)


@wp.kernel
def yield_sq_error(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=float), c: wp.array(dtype=float),
                   err: wp.array(dtype=float)):
    i = wp.tid()
    g = x[i][0]
    r = x[i][1]
    h = x[i][2]
    pred = c[0] * g + c[1] * r + c[2] * r * r - c[3] * h * h
    d = pred - y[i]
    err[i] = d * d


class YieldModel:
    def __init__(self, lr=0.02):
        self.c = wp.array(C0, dtype=float, requires_grad=True)
        self.x = wp.array(X, dtype=wp.vec3)
        self.y = wp.array(Y, dtype=float)
        self.err = wp.zeros(N_COUNTY, dtype=float, requires_grad=True)
        self.opt = warp.optim.SGD([self.c], lr=lr)
        self.tape = wp.Tape()
        self.log = []

    def mse(self):
        return float(self.err.numpy().mean())

    def step(self):
        self.tape.reset()
        with self.tape:
            wp.launch(yield_sq_error, dim=N_COUNTY, inputs=[self.x, self.y, self.c], outputs=[self.err])
        self.err.grad.fill_(1.0 / N_COUNTY)
        self.tape.backward()
        self.log.append((self.c.numpy().copy(), self.c.grad.numpy().copy(), self.mse()))
        self.opt.step([self.c.grad])


def objective(c):
    m = YieldModel()
    m.c.assign(np.asarray(c, dtype=np.float32))
    wp.launch(yield_sq_error, dim=N_COUNTY, inputs=[m.x, m.y, m.c], outputs=[m.err])
    return float(m.err.numpy().astype(np.float64).mean())


def verify(n_iter=4, eps=1e-3):
    """Gradient SGD consumed at the last step vs central FD of the reported mean error."""
    m = YieldModel(lr=0.02)
    for _ in range(n_iter):
        m.step()
    c, g, _ = m.log[-1]
    fd = []
    for k in range(c.size):
        e = np.zeros(c.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(c + e) - objective(c - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    m = YieldModel(lr=0.02)
    for it in range(6):
        m.step()
        print(f"step {it}: mean squared error {m.log[-1][2]:.3f} (t/ha)^2, coefficients {np.round(m.log[-1][0], 3)}")
