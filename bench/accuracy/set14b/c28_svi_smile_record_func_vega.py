# correct: the record_func adjoint of the host pricing step multiplies the incoming price gradient by the exact Black-Scholes vega S phi(d1) sqrt(T).
"""Volatility smile calibration: a quadratic-in-log-moneyness smile
sigma(K) = a + b k + c k^2 feeds Black-Scholes call prices computed on the
host; the pricing step enters the tape through Tape.record_func with its
analytic vega as the adjoint.
"""
import math

import numpy as np
import warp as wp

wp.config.quiet = True

SPOT, T, R = 100.0, 0.5, 0.01
STRIKES = np.array([70, 80, 90, 95, 100, 105, 110, 120, 130], dtype=np.float32)
MARKET = np.array([30.93, 21.86, 13.87, 10.46, 7.51, 5.07, 3.18, 1.06, 0.33], dtype=np.float32)


def npdf(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def ncdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@wp.kernel
def smile(strikes: wp.array(dtype=float), prm: wp.array(dtype=float), sigma: wp.array(dtype=float)):
    j = wp.tid()
    k = wp.log(strikes[j] / SPOT)
    sigma[j] = prm[0] + prm[1] * k + prm[2] * k * k


@wp.kernel
def price_misfit(price: wp.array(dtype=float), mkt: wp.array(dtype=float), loss: wp.array(dtype=float)):
    j = wp.tid()
    d = price[j] - mkt[j]
    wp.atomic_add(loss, 0, d * d)


def bs_prices(sigma, price):
    sig = sigma.numpy()
    out, vegas = np.zeros_like(sig), np.zeros_like(sig)
    for j, (k, s) in enumerate(zip(STRIKES, sig)):
        d1 = (math.log(SPOT / k) + (R + 0.5 * s * s) * T) / (s * math.sqrt(T))
        d2 = d1 - s * math.sqrt(T)
        out[j] = SPOT * ncdf(d1) - k * math.exp(-R * T) * ncdf(d2)
        vega = SPOT * npdf(d1) * math.sqrt(T)
        vegas[j] = vega
    price.assign(out)

    def backward():
        sigma.grad.assign(sigma.grad.numpy() + price.grad.numpy() * vegas)

    return backward


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    sigma = wp.zeros(STRIKES.size, dtype=float, requires_grad=True)
    price = wp.zeros(STRIKES.size, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(smile, dim=STRIKES.size, inputs=[wp.array(STRIKES, dtype=float), prm], outputs=[sigma])
        tape.record_func(backward=bs_prices(sigma, price), arrays=[sigma, price])
        wp.launch(price_misfit, dim=STRIKES.size, inputs=[price, wp.array(MARKET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.21, -0.15, 0.3])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"price SSE {l:.4f}; d/d(a, b, c) = {g}")
