# correct: look-alike of b19 (Carreau viscosity array rewritten by a slip-correction kernel), with the viscosity a plain requires_grad array so the rewrite consumes its gradient.
"""Capillary and rotational rheometry of a polyethylene melt.

Apparent viscosity follows the Carreau law
eta = eta_inf + (eta0 - eta_inf) (1 + (lambda gdot)^2)^((n - 1) / 2).
At high shear rates the capillary data are affected by wall slip, so a second
kernel rewrites those entries with a Mooney slip-corrected viscosity
eta / (1 + beta gdot^0.5). Parameters: ln eta0, ln lambda, n, slip beta.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

ETA_INF = 10.0  # Pa s
SLIP_ONSET = 300.0  # 1/s
SHEAR = np.logspace(-1, 3.5, 14)
_eta = ETA_INF + (8000.0 - ETA_INF) * (1 + (0.5 * SHEAR) ** 2) ** ((0.35 - 1) / 2)
ETA_OBS = np.where(SHEAR > SLIP_ONSET, _eta / (1 + 0.02 * SHEAR**0.5), _eta) * np.exp(
    np.random.default_rng(9).normal(0, 0.02, SHEAR.size))


@wp.kernel
def carreau(par: wp.array(dtype=float), gdot: wp.array(dtype=float), eta: wp.array(dtype=float)):
    i = wp.tid()
    lam_g = wp.exp(par[1]) * gdot[i]
    eta[i] = ETA_INF + (wp.exp(par[0]) - ETA_INF) * wp.pow(1.0 + lam_g * lam_g, 0.5 * (par[2] - 1.0))


@wp.kernel
def slip_correct(par: wp.array(dtype=float), gdot: wp.array(dtype=float), eta: wp.array(dtype=float)):
    i = wp.tid()
    if gdot[i] > SLIP_ONSET:
        lam_g = wp.exp(par[1]) * gdot[i]
        bulk = ETA_INF + (wp.exp(par[0]) - ETA_INF) * wp.pow(1.0 + lam_g * lam_g, 0.5 * (par[2] - 1.0))
        eta[i] = bulk / (1.0 + par[3] * wp.sqrt(gdot[i]))


@wp.kernel
def log_misfit(eta: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.log(eta[i]) - wp.log(obs[i])
    wp.atomic_add(loss, 0, 100.0 * d * d)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    gdot = wp.array(SHEAR, dtype=float)
    eta = wp.zeros(len(SHEAR), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(carreau, dim=len(SHEAR), inputs=[par, gdot], outputs=[eta])
        wp.launch(slip_correct, dim=len(SHEAR), inputs=[par, gdot], outputs=[eta])
        wp.launch(log_misfit, dim=len(SHEAR), inputs=[eta, wp.array(ETA_OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [np.log(7000.0), np.log(0.6), 0.4, 0.03]
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"log-viscosity misfit {l:.4f}  gradient (ln eta0, ln lambda, n, beta) = {g}")
