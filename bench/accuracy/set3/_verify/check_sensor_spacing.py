from common import *

g = run_prog("sensor_spacing.py")
S = g["SIGMA"]

def objective(P):
    d = P[:, None, :] - P[None, :, :]
    r = np.sqrt(np.sum(d * d, axis=2))
    s = np.sum(P * P, axis=1) - 1
    return np.sum(0.5 / (1 + (r / S) ** 2)) + np.sum(4 * s * s)

P0 = g["pos_np"].astype(np.float64)
print("forward np", objective(P0), "warp", g["energy_value"])
fd = cfd(objective, P0, 1e-6)
record("sensor_spacing.py", "correct", g["pos_grad"], fd)
