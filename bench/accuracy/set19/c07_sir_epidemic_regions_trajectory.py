# correct: look-alike of b07 (day loop with a run-time trip count inside one SIR kernel), with the daily states kept in a (region, day) array so the loop carries no local state.
"""Regional SIR model of a seasonal influenza wave.

Each of six health regions is integrated day by day inside one kernel thread
(explicit Euler, dt = 1 day) for the length of the surveillance window, which
is passed in at run time. Transmission rate beta and recovery rate gamma are
fitted to the reported prevalence at the end of the window.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_REG = 6
WINDOW = wp.constant(14)  # days of surveillance
I0 = np.array([0.002, 0.004, 0.001, 0.003, 0.0015, 0.0025])
MIX = np.array([0.9, 1.1, 1.0, 0.8, 1.2, 0.95])  # contact-rate multipliers
I_REPORTED = np.array([0.021, 0.071, 0.012, 0.018, 0.052, 0.030])


@wp.kernel
def sir_window(rates: wp.array(dtype=float), i0: wp.array(dtype=float), mix: wp.array(dtype=float),
               n_days: int, traj: wp.array2d(dtype=float), i_end: wp.array(dtype=float)):
    r = wp.tid()
    traj[r, 0] = 1.0 - i0[r]
    traj[r, 1] = i0[r]
    beta = rates[0] * mix[r]
    gamma = rates[1]
    for day in range(n_days):
        s = traj[r, 2 * day]
        inf = traj[r, 2 * day + 1]
        new_inf = beta * s * inf
        traj[r, 2 * day + 2] = s - new_inf
        traj[r, 2 * day + 3] = inf + new_inf - gamma * inf
    i_end[r] = traj[r, 2 * n_days + 1]


@wp.kernel
def prevalence_loss(i_end: wp.array(dtype=float), rep: wp.array(dtype=float), loss: wp.array(dtype=float)):
    r = wp.tid()
    d = 100.0 * (i_end[r] - rep[r])
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    rates = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    i_end = wp.zeros(N_REG, dtype=float, requires_grad=True)
    traj = wp.zeros((N_REG, 2 * WINDOW + 2), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(sir_window, dim=N_REG, inputs=[rates, wp.array(I0, dtype=float), wp.array(MIX, dtype=float), WINDOW],
                  outputs=[traj, i_end])
        wp.launch(prevalence_loss, dim=N_REG, inputs=[i_end, wp.array(I_REPORTED, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), rates.grad.numpy().copy()


PARAMS0 = [0.38, 0.2]
FD_EPS = 1e-4

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(100):
        l, g = evaluate(p)
        p = np.clip(p - 0.005 * g / (np.linalg.norm(g) + 1e-9), 0.05, 1.0)
    print(f"loss {l:.4f}  beta = {p[0]:.3f}/day  gamma = {p[1]:.3f}/day  R0 ~ {p[0] / p[1]:.2f}")
