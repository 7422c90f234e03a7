from common import *

g = run_prog("buoy_tracking.py")
DT, T = g["DT"], g["T"]
obs = g["obs_np"].astype(np.float64)

def objective(p, steps=T, z0=None, w0=None, t0=0):
    z = np.array([0.1, -0.2, 0.05]) if z0 is None else z0.copy()
    w = np.zeros(3) if w0 is None else w0.copy()
    c = 0.0
    for t in range(t0, t0 + steps):
        wave = 0.5 * np.sin(1.3 * (np.float32(t * DT)) + np.arange(3))
        acc = -p[0] * z - 0.3 * z ** 3 - p[1] * w + wave
        w = w + DT * acc
        z = z + DT * w
        c += np.sum((z - obs[t]) ** 2)
    return c

p0 = np.array([2.0, 0.4])
print("forward np", objective(p0), "warp", g["total_cost"])
fd = cfd(objective, p0, 1e-6)
record("buoy_tracking.py", "truncation", g["total_grad"], fd, note="tape per 10-step window, state carried outside the tape")
gf = runpy.run_path(os.path.join(ROOT, "_verify", "fixed", "buoy_tracking_onetape.py"), run_name="__main__")
record("buoy_tracking.py[fixed]", "correct", gf["total_grad"], fd, note="fixed variant: one tape over the whole horizon")
