"""Estimate per-region SIR infection and recovery rates from infection curves.

The rates are optimised in log space (positivity); a small kernel maps the
log-parameters to rates before each rollout.  State per region is a vec3
(S, I, R) integrated with forward Euler.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

REGIONS = 3
STEPS = 30
DT = 0.5


@wp.kernel
def rates_from_log(log_beta: wp.array(dtype=float), log_gamma: wp.array(dtype=float),
                   beta: wp.array(dtype=float), gamma: wp.array(dtype=float)):
    r = wp.tid()
    beta[r] = wp.exp(log_beta[r])
    gamma[r] = wp.exp(log_gamma[r])


@wp.kernel
def sir_step(state: wp.array(dtype=wp.vec3), beta: wp.array(dtype=float), gamma: wp.array(dtype=float),
             state_out: wp.array(dtype=wp.vec3)):
    r = wp.tid()
    s = state[r][0]
    i = state[r][1]
    rec = state[r][2]
    new_inf = beta[r] * s * i
    new_rec = gamma[r] * i
    state_out[r] = wp.vec3(s - DT * new_inf, i + DT * (new_inf - new_rec), rec + DT * new_rec)


@wp.kernel
def infected_misfit(state: wp.array(dtype=wp.vec3), observed: wp.array2d(dtype=float), t: int, loss: wp.array(dtype=float)):
    r = wp.tid()
    d = state[r][1] - observed[t, r]
    wp.atomic_add(loss, 0, 100.0 * d * d)


class SIRModel:
    def __init__(self, s0):
        self.state0 = wp.array(s0, dtype=wp.vec3)
        self.beta = wp.zeros(REGIONS, dtype=float, requires_grad=True)
        self.gamma = wp.zeros(REGIONS, dtype=float, requires_grad=True)

    def simulate(self, log_beta, log_gamma, observed=None, loss=None):
        wp.launch(rates_from_log, dim=REGIONS, inputs=[log_beta, log_gamma], outputs=[self.beta, self.gamma], record_tape=False)  # expect: truncation
        state = self.state0
        traj = []
        for t in range(STEPS):
            nxt = wp.zeros(REGIONS, dtype=wp.vec3, requires_grad=True)
            wp.launch(sir_step, dim=REGIONS, inputs=[state, self.beta, self.gamma], outputs=[nxt])
            state = nxt
            if observed is not None:
                wp.launch(infected_misfit, dim=REGIONS, inputs=[state, observed, t], outputs=[loss])
            traj.append(state)
        return traj


S0 = np.array([[0.99, 0.01, 0.0], [0.95, 0.05, 0.0], [0.98, 0.02, 0.0]], np.float32)
TRUE_LOG = np.log(np.array([0.6, 0.4, 0.8, 0.2, 0.15, 0.3]))


def _observe():
    m = SIRModel(S0)
    lb = wp.array(TRUE_LOG[:REGIONS].astype(np.float32), dtype=float)
    lg = wp.array(TRUE_LOG[REGIONS:].astype(np.float32), dtype=float)
    traj = m.simulate(lb, lg)
    return wp.array(np.stack([s.numpy()[:, 1] for s in traj]).astype(np.float32), dtype=float)


OBSERVED = _observe()
PARAMS0 = TRUE_LOG + np.array([0.2, -0.2, 0.15, 0.1, -0.1, 0.2])


def evaluate(p):
    p = np.asarray(p, np.float32)
    log_beta = wp.array(p[:REGIONS], dtype=float, requires_grad=True)
    log_gamma = wp.array(p[REGIONS:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    model = SIRModel(S0)
    tape = wp.Tape()
    with tape:
        model.simulate(log_beta, log_gamma, OBSERVED, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([log_beta.grad.numpy(), log_gamma.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = evaluate(p)
        p -= 0.02 * g
        if it % 15 == 0:
            print(f"iter {it:2d} loss {loss:.5f} rates {np.round(np.exp(p), 3)}")
