"""Linear yield curve y(m) = y0 + slope * m fitted to a ladder of annual-pay
bonds with one to twelve years to maturity. Each thread values one bond's
coupon leg by walking its coupon dates; the principal is added in the misfit.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_YEARS = np.arange(1, 13, dtype=np.int32)
COUPON = np.array([2.0, 2.5, 3.0, 3.0, 3.5, 3.5, 4.0, 4.0, 4.5, 4.5, 5.0, 5.0], dtype=np.float32)
_true = 0.028 + 0.0015 * N_YEARS
MARKET = np.array([sum(c / (1 + y) ** k for k in range(1, n + 1)) + 100 / (1 + y) ** n
                   for c, n, y in zip(COUPON, N_YEARS, _true)], dtype=np.float32)


@wp.kernel
def coupon_leg(n_years: wp.array(dtype=int), coupon: wp.array(dtype=float), prm: wp.array(dtype=float),
               pv: wp.array(dtype=float)):
    b = wp.tid()
    n = n_years[b]
    y = prm[0] + prm[1] * float(n)
    v = 1.0 / (1.0 + y)
    df = float(1.0)
    price = float(0.0)
    for k in range(n):
        df = df * v  # expect: dynamic_loop
        price += coupon[b] * df
    pv[b] = price


@wp.kernel
def price_misfit(n_years: wp.array(dtype=int), pv: wp.array(dtype=float), prm: wp.array(dtype=float),
                 mkt: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    n = float(n_years[b])
    d = pv[b] + 100.0 / wp.pow(1.0 + prm[0] + prm[1] * n, n) - mkt[b]
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    n_years = wp.array(N_YEARS, dtype=int)
    pv = wp.zeros(N_YEARS.size, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(coupon_leg, dim=N_YEARS.size, inputs=[n_years, wp.array(COUPON, dtype=float), prm], outputs=[pv])
        wp.launch(price_misfit, dim=N_YEARS.size, inputs=[n_years, pv, prm, wp.array(MARKET, dtype=float)],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.03, 0.001])
FD_EPS = 1e-5

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        print(f"iter {it}: SSE {l:.5f}  grad {g}")
        p = p - 1e-8 * g
