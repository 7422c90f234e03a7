# correct: kernels update output arrays in place with += / -= (and atomics), which Warp differentiates correctly; nothing is multiplied or divided in place
"""Fit the potential of a 1-D anharmonic oscillator ensemble from observed
trajectories (leapfrog integration).  The potential is V(q) = a q^2/2 + b q^4/4
plus a learned per-member mass; the force terms are accumulated into the
output momentum with += and -=.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 6
STEPS = 20
DT = 0.05


@wp.kernel
def leapfrog(q: wp.array(dtype=float), p: wp.array(dtype=float), coef: wp.array(dtype=float), log_mass: wp.array(dtype=float),
             q_out: wp.array(dtype=float), p_out: wp.array(dtype=float)):
    i = wp.tid()
    a = coef[0]
    b = coef[1]
    inv_m = wp.exp(-log_mass[i])
    qi = q[i]
    # half kick
    ph = p[i] - 0.5 * DT * (a * qi + b * qi * qi * qi)
    qn = qi + DT * ph * inv_m
    q_out[i] = qn
    p_out[i] = ph
    p_out[i] -= 0.5 * DT * a * qn
    p_out[i] -= 0.5 * DT * b * qn * qn * qn


@wp.kernel
def obs_misfit(q: wp.array(dtype=float), obs: wp.array2d(dtype=float), t: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i] - obs[t, i]
    loss[0] += d * d


Q0 = np.linspace(0.3, 1.5, M).astype(np.float32)
P0 = np.zeros(M, np.float32)
TRUE = np.concatenate([[1.5, 0.6], np.log(np.linspace(0.8, 1.3, M))])


def rollout(coef, log_mass, obs=None, loss=None):
    q = wp.array(Q0, dtype=float)
    p = wp.array(P0, dtype=float)
    traj = []
    for t in range(STEPS):
        qn = wp.zeros(M, dtype=float, requires_grad=True)
        pn = wp.zeros(M, dtype=float, requires_grad=True)
        wp.launch(leapfrog, dim=M, inputs=[q, p, coef, log_mass], outputs=[qn, pn])
        if obs is not None:
            wp.launch(obs_misfit, dim=M, inputs=[qn, obs, t], outputs=[loss])
        q, p = qn, pn
        traj.append(q)
    return traj


def _obs():
    traj = rollout(wp.array(TRUE[:2].astype(np.float32), dtype=float), wp.array(TRUE[2:].astype(np.float32), dtype=float))
    return wp.array(np.stack([a.numpy() for a in traj]), dtype=float)


OBS = _obs()
PARAMS0 = TRUE + np.concatenate([[0.3, -0.2], np.random.default_rng(1).normal(0, 0.1, M)])


def evaluate(prm):
    prm = np.asarray(prm, np.float32)
    coef = wp.array(prm[:2], dtype=float, requires_grad=True)
    log_mass = wp.array(prm[2:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rollout(coef, log_mass, OBS, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([coef.grad.numpy(), log_mass.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    prm = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(prm)
        prm -= 0.02 * g
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.5f} a,b = {np.round(prm[:2], 3)}")
