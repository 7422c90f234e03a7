# correct: look-alike of b10 (Adam over two parameter arrays in a fitter class), with every gradient on the tape zeroed after each step.
"""Linear-solvent-strength model of reversed-phase HPLC retention, fitted with Adam.

For analyte j at organic fraction phi, ln k = ln k_w[j] - S[j] phi and the
retention time is t_R = t0 (1 + k). Four analytes were run isocratically at
five mobile-phase compositions. The two parameter arrays (ln k_w and S) are
fitted with warp.optim.Adam inside a RetentionFitter class.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

T0 = 1.2  # dead time, min
PHI = np.array([0.3, 0.4, 0.5, 0.6, 0.7])
_TRUE_LNKW = np.array([3.2, 3.9, 4.5, 5.1])
_TRUE_S = np.array([6.0, 7.1, 8.3, 9.0])
T_OBS = T0 * (1 + np.exp(_TRUE_LNKW[:, None] - _TRUE_S[:, None] * PHI[None, :]))


@wp.kernel
def retention_loss(lnkw: wp.array(dtype=float), s: wp.array(dtype=float), phi: wp.array(dtype=float),
                   t_obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    j, m = wp.tid()
    t_r = T0 * (1.0 + wp.exp(lnkw[j] - s[j] * phi[m]))
    d = wp.log(t_r) - wp.log(t_obs[j, m])
    wp.atomic_add(loss, 0, d * d)


def loss64(lnkw, s):
    t_r = T0 * (1 + np.exp(lnkw[:, None] - s[:, None] * PHI[None, :]))
    return np.sum((np.log(t_r) - np.log(T_OBS)) ** 2)


class RetentionFitter:
    def __init__(self):
        self.lnkw = wp.array([3.0, 3.5, 4.0, 4.5], dtype=float, requires_grad=True)
        self.s = wp.array([5.5, 6.5, 7.5, 8.5], dtype=float, requires_grad=True)
        self.phi = wp.array(PHI, dtype=float)
        self.t_obs = wp.array(T_OBS, dtype=float)
        self.opt = Adam([self.lnkw, self.s], lr=0.02)
        self.history = []

    def step(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(retention_loss, dim=(4, len(PHI)), inputs=[self.lnkw, self.s, self.phi, self.t_obs], outputs=[loss])
        self.tape.backward(loss)
        self.history.append((self.lnkw.numpy().astype(np.float64), self.s.numpy().astype(np.float64),
                             np.concatenate([self.lnkw.grad.numpy(), self.s.grad.numpy()]).astype(np.float64)))
        self.opt.step([self.lnkw.grad, self.s.grad])
        self.tape.zero()
        return float(loss.numpy()[0])


def verify():
    fitter = RetentionFitter()
    for it in range(5):
        fitter.step()
    lnkw, s, g = fitter.history[-1]
    x0 = np.concatenate([lnkw, s])
    fd = np.zeros(8)
    for k in range(8):
        e = np.zeros(8)
        e[k] = 1e-6
        fd[k] = (loss64((x0 + e)[:4], (x0 + e)[4:]) - loss64((x0 - e)[:4], (x0 - e)[4:])) / 2e-6
    return g, fd


if __name__ == "__main__":
    fitter = RetentionFitter()
    for it in range(60):
        l = fitter.step()
    print(f"log-retention misfit {l:.5f}; ln k_w = {np.round(fitter.lnkw.numpy(), 2)}; S = {np.round(fitter.s.numpy(), 2)}")
