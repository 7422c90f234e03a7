from common import *

g = run_prog("weighted_arrivals.py")
S = g["stations_np"].astype(np.float64); P = g["picks_np"].astype(np.float64); Wt = g["weights_np"].astype(np.float64)

def objective(s):
    t = s[2] + 0.4 * np.sqrt(((S - s[:2]) ** 2).sum(1) + 0.01)
    return np.dot(Wt, np.log1p((t - P) ** 2))

p0 = np.zeros(3)
print("forward np", objective(p0), "warp", g["objective"])
fd = cfd(objective, p0, 1e-6)
record("weighted_arrivals.py", "correct", g["src_grad"], fd)
