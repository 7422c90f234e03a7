from common import *

g = run_prog("accelerometer_fit.py")
raw = np.clip(g["raw_np"].astype(np.float64), -30, 30)
G = g["GRAV"]

def objective(p):
    a = p[:3] * (raw - p[3:])
    r = np.linalg.norm(a, axis=1) - G
    return np.mean(r * r)

p0 = np.array([1, 1, 1, 0, 0, 0], dtype=np.float64)
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("accelerometer_fit.py", "correct", np.concatenate([g["gains_grad"], g["bias_grad"]]), fd)
