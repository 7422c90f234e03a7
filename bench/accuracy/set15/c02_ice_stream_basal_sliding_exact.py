# correct: b02_ice_stream_basal_sliding (branchy @wp.func_grad of the sliding law, both regimes exact; the loss is of order 1e12 in float32)
"""Budd-type basal sliding law of an ice stream fitted to an inverted basal stress.

Grounded nodes follow tau_b = C * N^q * u^m; where the ice is afloat (effective
pressure N <= 0) a weak linear drag C * beta_f * u remains. The sliding law has
a hand-written adjoint with one branch per regime. Fitted: C (in 1e4 Pa units)
and the speed exponent m, over 4096 flowline nodes; the misfit is accumulated in
Pa^2 by one launch, so the loss itself is of order 1e12.
"""
import numpy as np
import warp as wp

from _icesheet import N_NODES, Q_EXP, flowline

wp.config.quiet = True

BETA_F = 0.004
PARAMS0 = np.array([4.6, 0.30])  # C [1e4 Pa], m
FD_EPS = np.array([1e-3, 1e-4])


@wp.func
def basal_stress(n_eff: float, u: float, c: float, m: float):
    if n_eff > 0.0:
        return c * 1.0e4 * wp.pow(n_eff, Q_EXP) * wp.pow(u, m)
    else:
        return c * 1.0e4 * BETA_F * u


@wp.func_grad(basal_stress)
def adj_basal_stress(n_eff: float, u: float, c: float, m: float, adj_ret: float):
    if n_eff > 0.0:
        tau = c * 1.0e4 * wp.pow(n_eff, Q_EXP) * wp.pow(u, m)
        wp.adjoint[c] += adj_ret * tau / c
        wp.adjoint[m] += adj_ret * tau * wp.log(u)
    else:
        wp.adjoint[c] += adj_ret * 1.0e4 * BETA_F * u


@wp.kernel
def stress_misfit(n_eff: wp.array(dtype=float), u: wp.array(dtype=float), tau_obs: wp.array(dtype=float),
                  prm: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = basal_stress(n_eff[i], u[i], prm[0], prm[1]) - tau_obs[i]
    wp.atomic_add(loss, 0, d * d)


N_EFF, U, TAU_OBS = flowline()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(stress_misfit, dim=N_NODES,
                  inputs=[wp.array(N_EFF, dtype=float), wp.array(U, dtype=float), wp.array(TAU_OBS, dtype=float), prm],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"{N_NODES} nodes, {int((N_EFF <= 0).sum())} afloat; misfit {L:.4e} Pa^2; d/d(C, m) = {g}")
