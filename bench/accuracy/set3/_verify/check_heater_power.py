from common import *

g = run_prog("heater_power.py")
NX, NY, STEPS, K = g["NX"], g["NY"], g["STEPS"], g["KAPPA"]
obs = g["raw_np"].astype(np.float64) / 4.0
xi = (np.arange(NX) / NX)[:, None]; yj = (np.arange(NY) / NY)[None, :]

def objective(p):
    u = np.zeros((NX, NY))
    for _ in range(STEPS):
        up = np.pad(u, 1, mode="edge")
        n = up[:-2, 1:-1] + up[2:, 1:-1] + up[1:-1, :-2] + up[1:-1, 2:]
        q = p[0] * np.exp(-((xi - p[1]) ** 2 + (yj - 0.5) ** 2) / 0.02)
        u = u + K * (n - 4 * u) + 0.1 * q - 0.05 * u * u
    return np.sum((u - obs) ** 2)

p0 = np.array([1.5, 0.5])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-6)
record("heater_power.py", "correct", g["power_grad"], fd)
