# correct: the in-kernel /= divides by the constant 100 (per-unit-notional prices); the parameter-dependent discount factor is applied in the assignment.
"""Issuer curve fit: a flat risk-free yield plus a rating-scaled credit
spread, calibrated to the dirty prices of six corporate bonds (per unit notional).

Cash flows are laid out one per row (bond id, time, amount); each row is
discounted in one kernel and the present values are summed per bond.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

BONDS = [(0.045, 3, 1.0), (0.05, 5, 1.0), (0.04, 7, 2.0), (0.06, 4, 3.0), (0.055, 10, 2.0), (0.035, 2, 1.0)]
MARKET = np.array([101.9, 102.6, 95.8, 101.3, 99.1, 100.2], dtype=np.float32) / 100.0
rows = [(b, float(t), 100.0 * c + (100.0 if t == m else 0.0), r) for b, (c, m, r) in enumerate(BONDS)
        for t in range(1, m + 1)]
BOND_ID = np.array([r[0] for r in rows], dtype=np.int32)
TIME = np.array([r[1] for r in rows], dtype=np.float32)
CASH = np.array([r[2] for r in rows], dtype=np.float32)
RATING = np.array([r[3] for r in rows], dtype=np.float32)


@wp.kernel
def discount(cf: wp.array(dtype=float), t: wp.array(dtype=float), rating: wp.array(dtype=float),
             prm: wp.array(dtype=float), pv: wp.array(dtype=float)):
    j = wp.tid()
    pv[j] = cf[j] / wp.pow(1.0 + prm[0] + prm[1] * rating[j], t[j])
    pv[j] /= 100.0


@wp.kernel
def price_error(pv: wp.array(dtype=float), bond: wp.array(dtype=int), model: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(model, bond[j], pv[j])


@wp.kernel
def sse(model: wp.array(dtype=float), mkt: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    d = 100.0 * (model[b] - mkt[b])
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pv = wp.zeros(TIME.size, dtype=float, requires_grad=True)
    model = wp.zeros(len(BONDS), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(discount, dim=TIME.size, inputs=[wp.array(CASH, dtype=float), wp.array(TIME, dtype=float),
                                                   wp.array(RATING, dtype=float), prm], outputs=[pv])
        wp.launch(price_error, dim=TIME.size, inputs=[pv, wp.array(BOND_ID, dtype=int)], outputs=[model])
        wp.launch(sse, dim=len(BONDS), inputs=[model, wp.array(MARKET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.035, 0.006])
FD_EPS = 1e-4

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"price SSE {l:.4f}; d/d(risk-free yield, spread per notch) = {g}")
