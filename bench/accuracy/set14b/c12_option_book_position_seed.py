# correct: the line prices are back-propagated with the position vector as seed, exactly the weights of the reported book value.
"""Vega and rho of an equity option book (long and short calls and puts).

Each line is priced with Black-Scholes in one kernel launch; the book value
is the position-weighted sum of the line prices, and its sensitivities to the
flat implied volatility and the rate drive the hedge.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

SPOT = 100.0
STRIKES = np.array([80, 90, 95, 100, 105, 110, 120, 100], dtype=np.float32)
EXPIRY = np.array([0.25, 0.5, 0.5, 1.0, 1.0, 0.5, 2.0, 0.25], dtype=np.float32)
IS_CALL = np.array([0, 0, 1, 1, 1, 1, 1, 0], dtype=np.int32)
POSITIONS = np.array([-10.0, 25.0, -15.0, 40.0, -30.0, 20.0, -5.0, 12.0], dtype=np.float32)


@wp.func
def norm_cdf(x: float):
    return 0.5 * (1.0 + wp.erf(x / wp.sqrt(2.0)))


@wp.kernel
def black_scholes(k: wp.array(dtype=float), tau: wp.array(dtype=float), is_call: wp.array(dtype=int),
                  mkt: wp.array(dtype=float), value: wp.array(dtype=float)):
    j = wp.tid()
    sig = mkt[0]
    r = mkt[1]
    st = sig * wp.sqrt(tau[j])
    d1 = (wp.log(SPOT / k[j]) + (r + 0.5 * sig * sig) * tau[j]) / st
    d2 = d1 - st
    disc = k[j] * wp.exp(-r * tau[j])
    call = SPOT * norm_cdf(d1) - disc * norm_cdf(d2)
    if is_call[j] == 1:
        value[j] = call
    else:
        value[j] = call - SPOT + disc


def evaluate(p):
    mkt = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    value = wp.zeros(STRIKES.size, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(black_scholes, dim=STRIKES.size,
                  inputs=[wp.array(STRIKES, dtype=float), wp.array(EXPIRY, dtype=float),
                          wp.array(IS_CALL, dtype=int), mkt], outputs=[value])
    book = float(np.dot(POSITIONS, value.numpy()))
    tape.backward(grads={value: wp.array(POSITIONS, dtype=float)})
    return book, mkt.grad.numpy().copy()


PARAMS0 = np.array([0.22, 0.03])

if __name__ == "__main__":
    v, g = evaluate(PARAMS0)
    print(f"book value {v:.2f}; vega {g[0]:.2f}, rho {g[1]:.2f}")
