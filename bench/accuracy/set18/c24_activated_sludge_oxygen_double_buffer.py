# correct: aeration fit that stages the next day's DO readings into the second of two probe buffers, leaving the taped buffer untouched until backward.
"""Aeration model of six activated-sludge basins, calibrated day by day.

Dissolved oxygen C = Cs - OUR / kLa with kLa = a * Q_air^b and the oxygen
uptake rate OUR = r * MLSS. The coefficients a, b and the specific uptake r
are fitted to the DO-probe averages of each day; the next day's logger file
is staged into the other of two probe buffers while the current day is processed.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BASIN = 6
Q_AIR = np.array([1.8, 2.2, 1.5, 2.6, 2.0, 1.7], dtype=np.float32)  # 1000 Nm^3/h
MLSS = np.array([3.2, 3.6, 2.9, 4.1, 3.4, 3.0], dtype=np.float32)  # g/L
CS = 9.1  # mg/L saturation at 15 C
DO_DAYS = np.array([
    [1.9, 2.3, 1.4, 2.6, 2.1, 1.7],
    [3.4, 3.9, 2.8, 4.2, 3.6, 3.1],
    [2.2, 2.6, 1.6, 2.9, 2.4, 1.9],
], dtype=np.float32)


@wp.kernel
def do_misfit(q_air: wp.array(dtype=float), mlss: wp.array(dtype=float), p: wp.array(dtype=float),
              do_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    kla = p[0] * wp.pow(q_air[i], p[1])  # 1/h
    our = p[2] * mlss[i]  # mg/L/h
    c = CS - our / kla
    r = c - do_obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_BASIN))


q_d = wp.array(Q_AIR, dtype=float)
mlss_d = wp.array(MLSS, dtype=float)
probe_bufs = [wp.zeros(N_BASIN, dtype=float) for _ in range(2)]
PARAMS0 = [3.0, 0.8, 6.0]
FD_EPS = [1e-3, 1e-3, 1e-3]


def evaluate(p, day=0):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    do_obs = probe_bufs[day % 2]
    do_obs.assign(DO_DAYS[day])
    tape = wp.Tape()
    with tape:
        wp.launch(do_misfit, dim=N_BASIN, inputs=[q_d, mlss_d, params, do_obs], outputs=[loss])
    value = float(loss.numpy()[0])
    probe_bufs[(day + 1) % 2].assign(DO_DAYS[(day + 1) % len(DO_DAYS)])
    tape.backward(loss)
    return value, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for day in range(len(DO_DAYS)):
        l, g = evaluate(p, day)
        print(f"day {day}: DO misfit {l:.4f}  grad a/b/r = {np.round(g, 4)}")
