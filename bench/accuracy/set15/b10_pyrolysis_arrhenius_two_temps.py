"""Activation energies of a lumped six-reaction pyrolysis scheme from two isothermal runs.

Rate constants k_j = A_j exp(-Ea_j / (R T)) are evaluated into a rate buffer
for each furnace temperature; the lumped gas yield over the residence time is
sum_j nu_j k_j tau, accumulated per run. The mechanism keeps the rate buffer
with retain_grad=True so that d(loss)/dk can be inspected after backward.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

R_GAS = 8.314e-3  # kJ / mol K
LOG_A = np.array([17.2, 16.1, 18.0, 15.4, 16.8, 14.9], dtype=np.float32)  # ln(1/s)
NU = np.array([0.35, 0.20, 0.55, 0.10, 0.25, 0.40], dtype=np.float32)  # gas mass per reaction
T_RUNS = (650.0, 670.0)  # K
TAU = 2.0  # s
YIELD_MEAS = np.array([0.030, 0.110], dtype=np.float32)
PARAMS0 = np.array([118.0, 112.0, 124.0, 104.0, 116.0, 101.0])  # Ea [kJ/mol]
FD_EPS = 0.01


@wp.kernel
def arrhenius(log_a: wp.array(dtype=float), ea: wp.array(dtype=float), temp: float, k: wp.array(dtype=float)):
    j = wp.tid()
    k[j] = wp.exp(log_a[j] - ea[j] / (R_GAS * temp))


@wp.kernel
def lumped_yield(nu: wp.array(dtype=float), k: wp.array(dtype=float), tau: float, run: int,
                 y: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(y, run, nu[j] * k[j] * tau)


@wp.kernel
def log_yield_misfit(y: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    r = wp.tid()
    d = wp.log(y[r] / meas[r])
    wp.atomic_add(loss, 0, d * d)


class Mechanism:
    def __init__(self):
        self.log_a = wp.array(LOG_A, dtype=float)
        self.nu = wp.array(NU, dtype=float)
        self.k = wp.zeros(len(LOG_A), dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad

    def gas_yield(self, ea, y):
        for run, temp in enumerate(T_RUNS):
            wp.launch(arrhenius, dim=len(LOG_A), inputs=[self.log_a, ea, temp], outputs=[self.k])
            wp.launch(lumped_yield, dim=len(LOG_A), inputs=[self.nu, self.k, TAU, run], outputs=[y])


MECH = Mechanism()


def evaluate(p):
    ea = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    y = wp.zeros(len(T_RUNS), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        MECH.gas_yield(ea, y)
        wp.launch(log_yield_misfit, dim=len(T_RUNS), inputs=[y, wp.array(YIELD_MEAS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    g = ea.grad.numpy().astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"log-yield misfit {L:.4f}; d/dEa = {np.round(g, 4)} per kJ/mol")
