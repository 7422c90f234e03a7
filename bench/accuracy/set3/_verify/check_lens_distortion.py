from common import *

g = run_prog("lens_distortion.py")
P = g["pts_np"].astype(np.float64); O = g["obs_np"].astype(np.float64); F = g["FOCAL"]

def objective(k):
    z = np.maximum(P[:, 2:3], 0.05)
    xn = P[:, :2] / z
    r2 = np.sum(xn ** 2, axis=1, keepdims=True)
    uv = F * (1 + k[0] * r2 + k[1] * r2 ** 2) * xn
    return np.sum(((uv - O) / F) ** 2)

p0 = np.zeros(2)
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("lens_distortion.py", "correct", g["k_grad"], fd)
