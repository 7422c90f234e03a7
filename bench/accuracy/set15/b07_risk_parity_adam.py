"""Risk-parity allocation over 12 asset classes with warp.optim.Adam.

Portfolio weights are a softmax of free logits; each asset's squared deviation
of its risk contribution from 1/N (in percent) is computed in a kernel. The
host reports the mean deviation and the backward pass is seeded with a dict
on the deviation array before every Adam step.
"""
import numpy as np
import warp as wp
import warp.optim

from _riskmodel import N_ASSET, covariance, risk_parity_deviation

wp.config.quiet = True

COV = covariance()
THETA0 = np.linspace(0.3, -0.3, N_ASSET).astype(np.float32)


class RiskParity:
    def __init__(self, lr=0.05):
        self.cov = wp.array(COV, dtype=float)
        self.theta = wp.array(THETA0, dtype=float, requires_grad=True)
        self.dev = wp.zeros(N_ASSET, dtype=float, requires_grad=True)
        self.opt = warp.optim.Adam([self.theta], lr=lr)
        self.history = []

    def iterate(self):
        tape = wp.Tape()
        with tape:
            risk_parity_deviation(self.cov, self.theta, self.dev)
        loss = float(np.mean(self.dev.numpy()))
        tape.backward(grads={self.dev: wp.ones(N_ASSET, dtype=float)})  # expect: seeding
        self.history.append((self.theta.numpy().copy(), self.theta.grad.numpy().copy(), loss))
        self.opt.step([self.theta.grad])
        tape.zero()


def objective(theta):
    dev = wp.zeros(N_ASSET, dtype=float)
    risk_parity_deviation(wp.array(COV, dtype=float), wp.array(np.asarray(theta, dtype=np.float32), dtype=float), dev)
    return float(dev.numpy().astype(np.float64).mean())


def verify(n_iter=5, eps=1e-3):
    """Gradient Adam consumed at the last step vs central FD of the reported mean deviation."""
    rp = RiskParity()
    for _ in range(n_iter):
        rp.iterate()
    th, g, _ = rp.history[-1]
    fd = []
    for k in range(th.size):
        e = np.zeros(th.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(th + e) - objective(th - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    rp = RiskParity()
    for it in range(8):
        rp.iterate()
        print(f"iter {it}: mean squared RC deviation {rp.history[-1][2]:.4f} %^2")
    w = np.exp(rp.theta.numpy())
    print("weights", np.round(w / w.sum(), 3))
