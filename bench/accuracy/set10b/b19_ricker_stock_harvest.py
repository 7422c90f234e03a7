"""Fisheries stock assessment: fit a Ricker population model with harvesting
to yearly abundance indices of several fish stocks.

n_{t+1} = (1 - h) * n_t * exp(r (1 - n_t / K)), per stock; r, K and the
harvest fraction h are estimated by gradient descent on log-abundance misfit.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

STOCKS = 3
YEARS = 15


@wp.kernel
def ricker_year(n: wp.array(dtype=float), r: wp.array(dtype=float), K: wp.array(dtype=float), harvest: wp.array(dtype=float),
                n_out: wp.array(dtype=float)):
    s = wp.tid()
    growth = wp.exp(r[s] * (1.0 - n[s] / K[s]))
    n_out[s] = n[s] * growth
    n_out[s] *= 1.0 - harvest[s]  # expect: inplace_op


@wp.kernel
def log_misfit(n: wp.array(dtype=float), index: wp.array2d(dtype=float), year: int, loss: wp.array(dtype=float)):
    s = wp.tid()
    d = wp.log(n[s]) - wp.log(index[year, s])
    wp.atomic_add(loss, 0, d * d)


N0 = np.array([0.6, 1.2, 0.3], np.float32)


class StockModel:
    def __init__(self, p):
        p = np.asarray(p, np.float32)
        self.r = wp.array(p[0:3], dtype=float, requires_grad=True)
        self.K = wp.array(p[3:6], dtype=float, requires_grad=True)
        self.harvest = wp.array(p[6:9], dtype=float, requires_grad=True)

    def params(self):
        return [self.r, self.K, self.harvest]

    def project(self, index=None, loss=None):
        n = wp.array(N0, dtype=float)
        out = []
        for year in range(YEARS):
            n_next = wp.zeros(STOCKS, dtype=float, requires_grad=True)
            wp.launch(ricker_year, dim=STOCKS, inputs=[n, self.r, self.K, self.harvest], outputs=[n_next])
            if index is not None:
                wp.launch(log_misfit, dim=STOCKS, inputs=[n_next, index, year], outputs=[loss])
            n = n_next
            out.append(n)
        return out


TRUE = np.array([0.9, 1.4, 0.7, 1.0, 2.0, 0.8, 0.25, 0.35, 0.15])


def _index():
    traj = StockModel(TRUE).project()
    return wp.array(np.stack([a.numpy() for a in traj]), dtype=float)


INDEX = _index()
PARAMS0 = TRUE * np.array([1.1, 0.9, 1.15, 0.9, 1.1, 1.1, 1.3, 0.8, 1.4])
FD_EPS = 1e-4


def evaluate(p):
    model = StockModel(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        model.project(INDEX, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([a.grad.numpy() for a in model.params()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 0.002 * g
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.5f} harvest {np.round(p[6:], 3)}")
