"""Synthetic flowline of a marine-terminating glacier: geometry, sliding speed, inverted basal stress.

Shared by the basal-sliding programs. Units: stresses in Pa, speeds in m/a,
effective pressure in MPa.
"""
import numpy as np

RHO_I = 917.0
RHO_W = 1028.0
G = 9.81
N_NODES = 4096
Q_EXP = 1.0 / 3.0


def flowline(seed=5):
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, 200e3, N_NODES)
    thick = 1800.0 * np.sqrt(np.clip(1.0 - x / 215e3, 0.02, None)) + 60.0
    bed = -200.0 - 900.0 * x / 200e3 + 80.0 * np.sin(x / 9e3)
    # effective pressure: ice overburden minus water pressure at the bed (negative where afloat)
    n_eff = (RHO_I * G * thick + RHO_W * G * np.minimum(bed, 0.0)) / 1e6
    u = 20.0 + 1800.0 * (x / 200e3) ** 3 + 5.0 * rng.random(N_NODES)
    tau_true = np.where(n_eff > 0.0, 5.2e4 * np.abs(n_eff) ** Q_EXP * u ** 0.28, 5.2e4 * 0.004 * u)
    tau_obs = tau_true * (1.0 + 0.05 * rng.standard_normal(N_NODES))
    return n_eff.astype(np.float32), u.astype(np.float32), tau_obs.astype(np.float32)
