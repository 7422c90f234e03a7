from common import *

g = run_prog("tide_harmonics.py")
t = g["t_np"].astype(np.float64); gauge = g["gauge_np"].astype(np.float64); om = g["om"].astype(np.float64)

def objective(p):
    a, ph = p[:3], p[3:]
    h = 2.0 + (a[None, :] * np.cos(om[None, :] * t[:, None] + ph[None, :])).sum(1)
    return np.mean((h - gauge) ** 2)

p0 = np.array([1.0, 0.5, 0.1, 0, 0, 0])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("tide_harmonics.py", "correct", np.concatenate([g["amp_grad"], g["phase_grad"]]), fd)
