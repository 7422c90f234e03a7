from common import *

g = run_prog("magnetometer_fit.py")
raw = g["raw"].numpy().astype(np.float64)

def objective(p):
    m = p[:3] * (raw - p[3:])
    r = np.sum(m * m, axis=1) - 1
    return np.mean(r * r)

p0 = np.array([1, 1, 1, 0, 0, 0], dtype=np.float64)
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("magnetometer_fit.py", "requires_grad", np.concatenate([g["scale_grad"], g["offset_grad"]]), fd, note="corrected = zeros_like(raw) inherits requires_grad=False")
gf = run_patched("magnetometer_fit.py", [("corrected = wp.zeros_like(raw)", "corrected = wp.zeros_like(raw, requires_grad=True)")])
record("magnetometer_fit.py[fixed]", "correct", np.concatenate([gf["scale_grad"], gf["offset_grad"]]), fd, note="fixed variant")
