"""Six-good economy: Cobb-Douglas households (endowment income), isoelastic producers, tatonnement rounds."""
import numpy as np
import warp as wp

N_GOOD = 6
SHARE = np.array([0.28, 0.22, 0.16, 0.14, 0.12, 0.08], dtype=np.float32)  # budget shares
ENDOW = np.array([3.0, 1.5, 2.0, 0.8, 1.2, 2.5], dtype=np.float32)  # household endowments
SUPPLY0 = np.array([1.1, 0.9, 1.4, 0.7, 0.6, 1.0], dtype=np.float32)
P_LAST_YEAR = np.ones(N_GOOD, dtype=np.float32)
ETA = 0.1  # price adjustment speed (contraction about 0.92 per round near equilibrium)
P_OBS = np.array([2.10, 1.80, 1.35, 1.60, 1.80, 0.95], dtype=np.float32)


@wp.kernel
def income(p: wp.array(dtype=float), endow: wp.array(dtype=float), inc: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(inc, 0, p[i] * endow[i])


@wp.kernel
def adjust_prices(p: wp.array(dtype=float), inc: wp.array(dtype=float), share: wp.array(dtype=float),
                  endow: wp.array(dtype=float), supply0: wp.array(dtype=float), prm: wp.array(dtype=float),
                  eta: float, p_new: wp.array(dtype=float)):
    # prm: supply elasticity theta, producer scale kappa
    i = wp.tid()
    demand = share[i] * inc[0] / p[i]
    supply = prm[1] * supply0[i] * wp.pow(p[i], prm[0])
    p_new[i] = p[i] + eta * (demand - supply)


@wp.kernel
def price_misfit(p: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.log(p[i] / obs[i])
    wp.atomic_add(loss, 0, d * d)


def trading_round(p, prm):
    inc = wp.zeros(1, dtype=float, requires_grad=True)
    p_new = wp.zeros(N_GOOD, dtype=float, requires_grad=True)
    wp.launch(income, dim=N_GOOD, inputs=[p, wp.array(ENDOW, dtype=float)], outputs=[inc])
    wp.launch(adjust_prices, dim=N_GOOD,
              inputs=[p, inc, wp.array(SHARE, dtype=float), wp.array(ENDOW, dtype=float),
                      wp.array(SUPPLY0, dtype=float), prm, ETA], outputs=[p_new])
    return p_new


def misfit(p, obs):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(price_misfit, dim=N_GOOD, inputs=[p, wp.array(obs, dtype=float)], outputs=[loss])
    return loss
