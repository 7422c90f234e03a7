# correct: the gradient is copied out of the NumPy view of prm.grad before tape.reset() zeroes the array.
"""Beverton-Holt stock-recruitment curve fitted to a fish stock assessment.

Recruits R = a S / (1 + b S) with lognormal errors; (log a, log b) are fitted
by host-side gradient descent; each evaluation returns the negative
log-likelihood and its gradient.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

SSB = np.array([12, 18, 25, 31, 40, 46, 55, 63, 70, 82, 95, 110], dtype=np.float32)
RECRUITS = np.array([95, 130, 150, 178, 190, 205, 212, 220, 226, 233, 236, 245], dtype=np.float32)


@wp.kernel
def lognormal_nll(ssb: wp.array(dtype=float), rec: wp.array(dtype=float), prm: wp.array(dtype=float),
                  nll: wp.array(dtype=float)):
    y = wp.tid()
    a = wp.exp(prm[0])
    b = wp.exp(prm[1])
    pred = a * ssb[y] / (1.0 + b * ssb[y])
    r = wp.log(rec[y]) - wp.log(pred)
    wp.atomic_add(nll, 0, 0.5 * r * r / 0.04)


class StockAssessment:
    def __init__(self):
        self.ssb = wp.array(SSB, dtype=float)
        self.rec = wp.array(RECRUITS, dtype=float)
        self.prm = wp.zeros(2, dtype=float, requires_grad=True)
        self.tape = wp.Tape()

    def nll_and_grad(self, p):
        self.prm.assign(np.asarray(p, dtype=np.float32))
        nll = wp.zeros(1, dtype=float, requires_grad=True)
        with self.tape:
            wp.launch(lognormal_nll, dim=SSB.size, inputs=[self.ssb, self.rec, self.prm], outputs=[nll])
        self.tape.backward(nll)
        g = self.prm.grad.numpy().copy()
        self.tape.reset()
        return float(nll.numpy()[0]), g


MODEL = StockAssessment()
PARAMS0 = np.array([2.4, -3.2])


def evaluate(p):
    return MODEL.nll_and_grad(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        f, g = evaluate(p)
        p = p - 0.002 * g
    print(f"NLL {f:.4f}; a = {np.exp(p[0]):.3f}, b = {np.exp(p[1]):.5f}")
