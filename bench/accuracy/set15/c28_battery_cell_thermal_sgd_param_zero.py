# correct: b28_battery_cell_thermal_sgd (a new tape per iteration, and the gradient zeroed after each step is the parameter's own prm.grad)
"""Identify internal resistance and cooling coefficient of a Li-ion cell from a drive-cycle log.

Lumped thermal model: C dT/dt = I^2 R(T) + I T dU/dT - hA (T - T_amb), with an
Arrhenius-type resistance R(T) = R0 exp(E/R (1/T - 1/298 K)). Four logged
drive cycles of 200 s are fitted with warp.optim.SGD; each iteration records a
new tape and zeroes the parameter gradient after the SGD step.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

N_CYC = 4
N_T = 200
DT = 1.0
C_TH = 80.0  # J/K
DUDT = -1.2e-4  # V/K entropic coefficient
T_AMB = 298.0
PRM0 = np.array([2.2, 3.0], dtype=np.float32)  # R0 [mOhm], hA [W/K x 0.01]


def drive_cycles(seed=17):
    rng = np.random.default_rng(seed)
    t = np.arange(N_T)
    cur = np.stack([40.0 * np.abs(np.sin(2 * np.pi * t / rng.uniform(30, 90))) + rng.uniform(0, 10, N_T)
                    for _ in range(N_CYC)], 1)
    return cur.astype(np.float32)


@wp.kernel
def cell_step(temp: wp.array2d(dtype=float), cur: wp.array2d(dtype=float), prm: wp.array(dtype=float), t: int):
    c = wp.tid()
    tk = temp[t, c]
    i = cur[t, c]
    r = prm[0] * 1.0e-3 * wp.exp(3000.0 * (1.0 / tk - 1.0 / 298.0))
    q = i * i * r + i * tk * DUDT - prm[1] * 0.01 * (tk - T_AMB)
    temp[t + 1, c] = tk + DT * q / C_TH


@wp.kernel
def log_misfit(temp: wp.array2d(dtype=float), meas: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    t, c = wp.tid()
    d = temp[t + 1, c] - meas[t, c]
    wp.atomic_add(loss, 0, d * d / float(N_T * N_CYC))


def simulate(prm, cur, temp):
    for t in range(N_T):
        wp.launch(cell_step, dim=N_CYC, inputs=[temp, cur, prm, t])


CUR = drive_cycles()


def measured():
    temp = wp.full((N_T + 1, N_CYC), T_AMB, dtype=float)
    simulate(wp.array([3.1, 4.2], dtype=float), wp.array(CUR, dtype=float), temp)
    return temp.numpy()[1:] + np.random.default_rng(3).normal(0.0, 0.05, (N_T, N_CYC)).astype(np.float32)


MEAS = measured()


class CellFit:
    def __init__(self, lr=0.02):
        self.prm = wp.array(PRM0, dtype=float, requires_grad=True)
        self.cur = wp.array(CUR, dtype=float)
        self.meas = wp.array(MEAS, dtype=float)
        self.temp = wp.full((N_T + 1, N_CYC), T_AMB, dtype=float, requires_grad=True)
        self.opt = warp.optim.SGD([self.prm], lr=lr)
        self.history = []

    def iterate(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            simulate(self.prm, self.cur, self.temp)
            wp.launch(log_misfit, dim=(N_T, N_CYC), inputs=[self.temp, self.meas], outputs=[loss])
        tape.backward(loss)
        self.history.append((self.prm.numpy().copy(), self.prm.grad.numpy().copy(), float(loss.numpy()[0])))
        self.opt.step([self.prm.grad])
        self.prm.grad.zero_()


def objective(prm):
    temp = wp.full((N_T + 1, N_CYC), T_AMB, dtype=float)
    simulate(wp.array(np.asarray(prm, dtype=np.float32), dtype=float), wp.array(CUR, dtype=float), temp)
    d = temp.numpy()[1:].astype(np.float64) - MEAS
    return float(np.mean(d * d))


def verify(n_iter=4, eps=1e-2):
    """Gradient SGD consumed at the last iteration vs central FD of the log misfit there."""
    fit = CellFit()
    for _ in range(n_iter):
        fit.iterate()
    prm, g, _ = fit.history[-1]
    fd = []
    for k in range(prm.size):
        e = np.zeros(prm.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(prm + e) - objective(prm - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    fit = CellFit()
    for it in range(8):
        fit.iterate()
        prm, g, L = fit.history[-1]
        print(f"iter {it}: misfit {L:.4f} K^2, R0 {prm[0]:.3f} mOhm, hA {prm[1] * 0.01:.4f} W/K")
