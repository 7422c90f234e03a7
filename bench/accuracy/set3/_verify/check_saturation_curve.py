from common import *

g = run_prog("saturation_curve.py")
c = g["conc"].astype(np.float64); r = g["rates"].astype(np.float64)

def objective(p):
    return 0.5 * np.sum((p[0] * c / (p[1] + c) - r) ** 2)

ads, fds = [], []
for p, l, gr in g["trace"]:
    assert abs(objective(p.astype(np.float64)) - l) < 1e-5
    ads.append(gr); fds.append(cfd(objective, p.astype(np.float64), 1e-5))
record("saturation_curve.py", "correct", np.concatenate(ads), np.concatenate(fds), note="all 5 iterations")
