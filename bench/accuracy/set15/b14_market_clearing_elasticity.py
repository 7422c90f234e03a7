"""Calibrate producer supply elasticity and scale so market-clearing prices match observed prices.

Clearing prices are found by tatonnement (p <- p + eta * excess demand,
contraction about 0.92 per round): the host iterates until the excess demand
vanishes and reports those prices. The gradient is taken on a tape that
replays a fixed number of rounds, warm-started from the reported clearing
prices so the taped prices already sit at equilibrium.
"""
import numpy as np
import warp as wp

from _market import N_GOOD, P_LAST_YEAR, P_OBS, misfit, trading_round

wp.config.quiet = True

PARAMS0 = np.array([0.8, 1.3])  # supply elasticity theta, producer scale kappa
FD_EPS = np.array([1e-3, 1e-3])


def clearing_prices(prm, tol=1e-6, max_rounds=5000):
    p = wp.array(P_LAST_YEAR, dtype=float)
    for _ in range(max_rounds):
        p_new = trading_round(p, prm)
        if np.max(np.abs(p_new.numpy() - p.numpy())) < tol:
            return p_new.numpy()
        p = p_new
    return p.numpy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    p_eq = clearing_prices(prm)
    loss_eq = float(np.sum(np.log(p_eq.astype(np.float64) / P_OBS) ** 2))
    tape = wp.Tape()
    with tape:
        prices = wp.array(p_eq, dtype=float, requires_grad=True)
        for _ in range(15):  # expect: fixed_point
            prices = trading_round(prices, prm)
        loss = misfit(prices, P_OBS)
    tape.backward(loss)
    return loss_eq, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    prm = wp.array(PARAMS0.astype(np.float32), dtype=float)
    print("clearing prices", np.round(clearing_prices(prm), 3), f"log-price misfit {L:.4f}")
    print("d misfit / d(theta, kappa) =", g)
