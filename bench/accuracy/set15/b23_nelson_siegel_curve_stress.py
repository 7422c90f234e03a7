"""Nelson-Siegel yield-curve fit to government bond quotes, with a same-day stress report.

Twelve annual-coupon bonds (1 to 30 years) are priced off the continuously
compounded Nelson-Siegel curve y(t) = b0 + b1 f1(t / tau) + b2 f2(t / tau);
the fit minimises the mean squared price error. Before backward, the risk desk
re-prices the quotes under a 2 % price shock to report the stressed misfit.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

MAX_CF = 30
N_BOND = 12
MATURITY = np.array([1, 2, 3, 4, 5, 7, 8, 10, 12, 15, 20, 30])
COUPON = np.array([0.5, 1.0, 1.25, 1.5, 2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75])
PARAMS0 = np.array([0.040, -0.020, 0.010, 2.5])  # b0, b1, b2, tau [years]
FD_EPS = np.array([1e-5, 1e-5, 1e-5, 1e-3])
SHOCK = 0.98


def cashflow_table():
    amt = np.zeros((N_BOND, MAX_CF), dtype=np.float32)
    for i, (n, c) in enumerate(zip(MATURITY, COUPON)):
        amt[i, :n] = c
        amt[i, n - 1] += 100.0
    return amt


def market_quotes():
    ns = np.array([0.042, -0.025, 0.015, 2.0])
    t = np.arange(1, MAX_CF + 1, dtype=np.float64)
    x = t / ns[3]
    f1 = (1 - np.exp(-x)) / x
    y = ns[0] + ns[1] * f1 + ns[2] * (f1 - np.exp(-x))
    q = cashflow_table() @ np.exp(-y * t) + np.random.default_rng(6).normal(0.0, 0.05, N_BOND)
    return q.astype(np.float32)


CF = cashflow_table()
QUOTES = market_quotes()


@wp.func
def ns_yield(t: float, b: wp.array(dtype=float)):
    x = t / b[3]
    f1 = (1.0 - wp.exp(-x)) / x
    return b[0] + b[1] * f1 + b[2] * (f1 - wp.exp(-x))


@wp.kernel
def bond_prices(cf: wp.array2d(dtype=float), b: wp.array(dtype=float), price: wp.array(dtype=float)):
    i, c = wp.tid()
    t = float(c + 1)
    if cf[i, c] > 0.0:
        wp.atomic_add(price, i, cf[i, c] * wp.exp(-ns_yield(t, b) * t))


@wp.kernel
def price_misfit(price: wp.array(dtype=float), quote: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = price[i] - quote[i]
    wp.atomic_add(loss, 0, d * d / float(N_BOND))


def evaluate(p, report=False):
    b = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    quotes = wp.array(QUOTES, dtype=float)
    price = wp.zeros(N_BOND, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bond_prices, dim=(N_BOND, MAX_CF), inputs=[wp.array(CF, dtype=float), b], outputs=[price])
        wp.launch(price_misfit, dim=N_BOND, inputs=[price, quotes], outputs=[loss])
    quotes.assign(QUOTES * SHOCK)  # expect: host_mutation
    stressed = wp.zeros(1, dtype=float)
    wp.launch(price_misfit, dim=N_BOND, inputs=[price, quotes], outputs=[stressed])
    tape.backward(loss)
    if report:
        print(f"stressed misfit {stressed.numpy()[0]:.3f}")
    return float(loss.numpy()[0]), b.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0, report=True)
    print(f"mean squared price error {L:.4f}; d/d(b0, b1, b2, tau) = {g}")
