"""Cox-Ingersoll-Ross short-rate model calibrated to a zero-coupon yield curve.

Closed-form CIR bond prices give model yields at twelve maturities; the
parameters (kappa, theta, sigma) are fitted by SGD with momentum.
"""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True

R0 = 0.015
MATS = np.array([0.25, 0.5, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30], dtype=np.float32)
MKT = np.array([1.62, 1.74, 1.95, 2.28, 2.52, 2.70, 2.84, 3.02, 3.18, 3.30, 3.35, 3.38], dtype=np.float32) / 100.0


@wp.kernel
def cir_yield_misfit(prm: wp.array(dtype=float), mats: wp.array(dtype=float), mkt: wp.array(dtype=float),
                     y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    kap = prm[0]
    th = prm[1]
    sig = prm[2]
    tau = mats[k]
    h = wp.sqrt(kap * kap + 2.0 * sig * sig)
    e = wp.exp(h * tau) - 1.0
    den = (h + kap) * e + 2.0 * h
    b = 2.0 * e / den
    log_a = (2.0 * kap * th / (sig * sig)) * wp.log(2.0 * h * wp.exp(0.5 * (kap + h) * tau) / den)
    y[k] = (b * R0 - log_a) / tau
    d = 1.0e4 * (y[k] - mkt[k])
    wp.atomic_add(loss, 0, d * d / 1.0e4)


class Calibrator:
    def __init__(self, p0):
        self.prm = wp.array(np.asarray(p0, dtype=np.float32), dtype=float, requires_grad=True)
        self.mats = wp.array(MATS, dtype=float)
        self.mkt = wp.array(MKT, dtype=float)
        self.y = wp.zeros(MATS.size, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.buffers = [self.y, self.loss]

    def record(self):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(cir_yield_misfit, dim=MATS.size, inputs=[self.prm, self.mats, self.mkt],
                      outputs=[self.y, self.loss])
        return tape

    def clear(self):
        for arr in self.buffers:  # expect: missing_zero
            arr.grad.zero_()


def objective(p):
    c = Calibrator(p)
    c.record()
    return float(c.loss.numpy()[0])


def train(n_iter, report_at=None):
    cal = Calibrator([0.4, 0.035, 0.06])
    opt = SGD([cal.prm], lr=2.0e-6, momentum=0.5)
    seen = None
    for it in range(n_iter):
        tape = cal.record()
        tape.backward(cal.loss)
        if it == report_at:
            seen = (cal.prm.numpy().copy(), cal.prm.grad.numpy().copy())
        opt.step([cal.prm.grad])
        cal.clear()
    return cal, seen


def verify():
    _, (p, g) = train(6, report_at=5)
    h = np.array([1e-3, 1e-4, 1e-4])
    fd = []
    for k in range(3):
        pp, pm = p.copy(), p.copy()
        pp[k] += h[k]
        pm[k] -= h[k]
        fd.append((objective(pp) - objective(pm)) / (2 * h[k]))
    return g, np.array(fd)


if __name__ == "__main__":
    cal, _ = train(40)
    print("kappa, theta, sigma =", cal.prm.numpy(), " misfit", float(cal.loss.numpy()[0]))
