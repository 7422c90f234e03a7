# correct: the retained P&L array is written by exactly one taped launch; the second launch of the same kernel writes a separate stress array.
"""Minimum-variance hedge of a short call book with stock and a put.

Scenario revaluations (stock, put, liability) come from a risk engine; the
hedge ratios q minimise the mean squared hedged P&L. Per-scenario P&L keeps
its gradient (retain_grad) for the scenario attribution report.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SCEN = 400
_rng = np.random.default_rng(5)
_ds = 100.0 * (np.exp(0.2 * np.sqrt(1 / 12) * _rng.standard_normal(N_SCEN)) - 1.0)
D_VAL = np.stack([_ds, -0.35 * _ds + 0.004 * _ds**2], axis=1).astype(np.float32)
D_LIAB = (0.55 * _ds + 0.012 * _ds**2).astype(np.float32)


@wp.kernel
def hedged_pnl(dv: wp.array2d(dtype=float), dl: wp.array(dtype=float), q: wp.array(dtype=float),
               pnl: wp.array(dtype=float)):
    s = wp.tid()
    pnl[s] = q[0] * dv[s, 0] + q[1] * dv[s, 1] - dl[s]


@wp.kernel
def mean_square(pnl: wp.array(dtype=float), out: wp.array(dtype=float)):
    s = wp.tid()
    wp.atomic_add(out, 0, pnl[s] * pnl[s] / float(N_SCEN))


class HedgeBook:
    def __init__(self, q):
        self.q = q
        self.dv = wp.array(D_VAL, dtype=float)
        self.dl = wp.array(D_LIAB, dtype=float)
        self.pnl = wp.zeros(N_SCEN, dtype=float, requires_grad=True, retain_grad=True)
        self.mark()

    def mark(self):
        wp.launch(hedged_pnl, dim=N_SCEN, inputs=[self.dv, self.dl, self.q], outputs=[self.pnl])


def assess(p):
    q = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    risk = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        book = HedgeBook(q)
        wp.launch(mean_square, dim=N_SCEN, inputs=[book.pnl], outputs=[risk])
        # stress report: the same revaluation written into its own array
        stressed = wp.zeros_like(book.pnl)
        wp.launch(hedged_pnl, dim=N_SCEN, inputs=[book.dv, book.dl, q], outputs=[stressed])
    tape.backward(risk)
    attribution = book.pnl.grad.numpy()
    _worst_stress = float(stressed.numpy().min())
    return float(risk.numpy()[0]), q.grad.numpy().copy(), attribution


PARAMS0 = np.array([0.4, -0.3])


def evaluate(p):
    return assess(p)[:2]


if __name__ == "__main__":
    r, g, att = assess(PARAMS0)
    print(f"hedged P&L variance {r:.4f}; d/dq = {g}; worst scenarios {np.argsort(-np.abs(att))[:5]}")
    print("next hedge ratios", PARAMS0 - 0.002 * g)
