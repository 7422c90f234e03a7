from common import *

g = run_prog("allen_cahn_relax.py")
N, STEPS, DT = g["N"], g["STEPS"], g["DT"]
phi0 = g["phi0"].astype(np.float64)
target = g["target"].numpy().astype(np.float64)

def objective(w):
    p = phi0.copy()
    idx = np.arange(N)
    for t in range(STEPS):
        a = p[np.maximum(idx - 1, 0)]; b = p[np.minimum(idx + 1, N - 1)]
        p = p + DT * (w[0] ** 2 * (a - 2 * p + b) + p - p ** 3)
    return 0.5 * np.sum((p - target) ** 2)

print("forward np", objective([1.2]), "warp", g["energy_value"])
fd = cfd(objective, [1.2], 1e-4)
record("allen_cahn_relax.py", "correct", [g["width_grad"]], fd)
