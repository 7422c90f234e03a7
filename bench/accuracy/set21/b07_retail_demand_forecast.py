"""Retail demand forecast: price elasticity and promotion lift fitted to weekly
store sales; the loss (mean squared log error) is computed on the host."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_WEEK = 26
rng = np.random.default_rng(3)
PRICE = (2.0 + 0.8 * rng.random(N_WEEK)).astype(np.float32)
PROMO = (rng.random(N_WEEK) < 0.3).astype(np.float32)
BASE = 120.0


@wp.kernel
def demand(p: wp.array(dtype=float), price: wp.array(dtype=float), promo: wp.array(dtype=float),
           logq: wp.array(dtype=float)):
    w = wp.tid()
    season = 0.15 * wp.sin(6.2831853 * float(w) / 26.0)
    logq[w] = wp.log(BASE) - p[0] * wp.log(price[w] / 2.4) + p[1] * promo[w] + season


def _sales():
    w = np.arange(N_WEEK)
    lq = np.log(BASE) - 1.7 * np.log(PRICE / 2.4) + 0.35 * PROMO + 0.15 * np.sin(2 * np.pi * w / 26)
    return (lq + 0.03 * np.cos(3 * w)).astype(np.float64)


LOG_SALES = _sales()
PARAMS0 = np.array([1.2, 0.2])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    logq = wp.zeros(N_WEEK, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(demand, dim=N_WEEK, inputs=[params, wp.array(PRICE, dtype=float), wp.array(PROMO, dtype=float)],
                  outputs=[logq])
    resid = logq.numpy().astype(np.float64) - LOG_SALES
    loss = np.mean(resid ** 2)
    seed = wp.array((2.0 * resid).astype(np.float32), dtype=float)  # expect: seeding
    tape.backward(grads={logq: seed})
    return float(loss), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.5 * g / N_WEEK
    print(f"MSLE {loss:.5f}  elasticity={p[0]:.3f}  promo lift={p[1]:.3f}")
