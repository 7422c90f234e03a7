# correct: the gradient is deliberately accumulated over the two maturity micro-batches of one iterate and cleared, parameter included, after every step.
"""Cox-Ingersoll-Ross short-rate model calibrated to a zero-coupon yield curve.

Closed-form CIR bond prices give model yields at twelve maturities; the
parameters (kappa, theta, sigma) are fitted by SGD with momentum; the
gradient is accumulated over two micro-batches (short and long end) before each step.
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
        # short and long end of the curve as two micro-batches
        self.batches = [(wp.array(MATS[s], dtype=float), wp.array(MKT[s], dtype=float)) for s in (slice(0, 6), slice(6, 12))]
        self.y = [wp.zeros(6, dtype=float, requires_grad=True) for _ in range(2)]
        self.losses = [wp.zeros(1, dtype=float, requires_grad=True) for _ in range(2)]
        self.buffers = self.y + self.losses

    def record(self, b):
        self.losses[b].zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(cir_yield_misfit, dim=6, inputs=[self.prm, self.batches[b][0], self.batches[b][1]],
                      outputs=[self.y[b], self.losses[b]])
        return tape

    def total(self):
        return float(self.losses[0].numpy()[0] + self.losses[1].numpy()[0])

    def clear(self):
        for arr in self.buffers + [self.prm]:
            arr.grad.zero_()


def objective(p):
    c = Calibrator(p)
    c.record(0)
    c.record(1)
    return c.total()


def train(n_iter, report_at=None):
    cal = Calibrator([0.4, 0.035, 0.06])
    opt = SGD([cal.prm], lr=2.0e-6, momentum=0.5)
    seen = None
    for it in range(n_iter):
        for b in range(2):
            tape = cal.record(b)
            tape.backward(cal.losses[b])
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
    print("kappa, theta, sigma =", cal.prm.numpy(), " misfit", cal.total())
