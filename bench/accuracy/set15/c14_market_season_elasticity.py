# correct: b14_market_clearing_elasticity (fifteen taped tatonnement rounds from last year's prices, and the objective is the end-of-season price the tape computes)
"""Calibrate producer supply elasticity and scale so this season's prices match observed prices.

Prices adjust by tatonnement (p <- p + eta * excess demand, contraction about
0.92 per round) from last year's prices; a season is fifteen trading rounds,
and the observed prices are end-of-season prices, not the long-run clearing
prices. The fifteen rounds are recorded on a tape; the misfit the host reports
is the one computed on the tape. The long-run clearing prices are printed for
comparison only.
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
    tape = wp.Tape()
    with tape:
        prices = wp.array(P_LAST_YEAR, dtype=float, requires_grad=True)
        for _ in range(15):
            prices = trading_round(prices, prm)
        loss = misfit(prices, P_OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    prm = wp.array(PARAMS0.astype(np.float32), dtype=float)
    print(f"end-of-season log-price misfit {L:.4f}; long-run clearing prices", np.round(clearing_prices(prm), 3))
    print("d misfit / d(theta, kappa) =", g)
