"""Hybrid pulse power characterisation (HPPC) data of six NMC pouch cells:
current profiles, state of charge by coulomb counting, and the cells'
open-circuit-voltage curve."""
import numpy as np

N_CELL = 6
N_STEPS = 60
DT = 5.0  # s
CAP_AS = 5.0 * 3600.0  # 5 Ah


def current_profiles():
    t = np.arange(N_STEPS) * DT
    base = np.where((t % 100.0) < 30.0, 1.0, np.where((t % 100.0) < 50.0, -0.75, 0.0))
    amps = np.linspace(5.0, 15.0, N_CELL)
    return (base[:, None] * amps[None, :]).astype(np.float32)  # A, discharge positive


def soc(current):
    soc0 = np.linspace(0.9, 0.4, N_CELL)
    return (soc0[None, :] - np.cumsum(current, axis=0) * DT / CAP_AS).astype(np.float32)


def ocv(s):
    return 3.3 + 0.9 * s - 0.25 * s * s + 0.08 * np.exp(-20.0 * s)


def measured_voltage(r0=0.021, r1=0.014, tau=35.0):
    i = current_profiles()
    v1 = np.zeros(N_CELL)
    out = []
    a = np.exp(-DT / tau)
    for n in range(N_STEPS):
        v1 = v1 * a + r1 * (1 - a) * i[n]
        out.append(ocv(soc(i)[n]) - i[n] * r0 - v1)
    rng = np.random.default_rng(19)
    return (np.array(out) + 0.0015 * rng.standard_normal((N_STEPS, N_CELL))).astype(np.float32)
