from common import *

g = run_prog("polyline_fairing.py")
D, T = g["DELTA"], g["TARGET"]

def hub(r):
    a = np.abs(r)
    return np.where(a <= D, 0.5 * r * r, D * (a - 0.5 * D))

def objective(P):
    d = P[1:] - P[:-1]
    L = np.sqrt(np.sum(d * d, axis=1) + 1e-9)
    return np.sum(hub(L - T))

P0 = g["pts_np"].astype(np.float64)
d = P0[1:] - P0[:-1]; print("residuals", np.sqrt((d * d).sum(1)) - T)
print("forward np", objective(P0), "warp", g["energy_value"])
fd = cfd(objective, P0, 1e-6)
record("polyline_fairing.py", "correct", g["pts_grad"], fd)
