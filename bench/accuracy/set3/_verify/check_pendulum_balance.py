from common import *

g = run_prog("pendulum_balance.py")
H, DT = g["HORIZON"], g["DT"]

def make_obj(th0):
    th0 = th0.astype(np.float64)
    def objective(k):
        th = th0.copy(); om = np.zeros_like(th)
        for t in range(H):
            torque = -k[0] * np.sin(th) - k[1] * om + 0.1 * np.sin(th0)
            w = om + DT * (-9.81 * np.sin(th) + torque)
            om = w; th = th + DT * w
        return np.mean(1 - np.cos(th) + 0.05 * om ** 2)
    return objective

ads, fds = [], []
for r in g["history"]:
    obj = make_obj(r["th0"])
    assert abs(obj(r["k"].astype(np.float64)) - r["cost"]) < 1e-4
    ads.append(r["grad"]); fds.append(cfd(obj, r["k"].astype(np.float64), 1e-5))
record("pendulum_balance.py", "correct", np.concatenate(ads), np.concatenate(fds), note="all 3 iterations")
