from common import *

g = run_prog("glider_segments.py")
DT, L, NS = g["DT"], g["SEG_LEN"], g["N_SEGS"]
starts = g["starts_np"].astype(np.float64); logged = g["logged_np"].astype(np.float64)

def objective(c):
    tot = 0.0
    for s in range(NS):
        v, gam = starts[s, :, 0].copy(), starts[s, :, 1].copy()
        for k in range(L):
            vd = -c[0] * v * v - 9.81 * np.sin(gam)
            gd = c[1] * v - 9.81 * np.cos(gam) / v
            v, gam = v + DT * vd, gam + DT * gd
            tot += np.sum((v - logged[s, k, :, 0]) ** 2 + 10 * (gam - logged[s, k, :, 1]) ** 2)
    return tot

p0 = np.array([0.02, 0.9])
print("forward np", objective(p0), "warp", g["total_cost"])
fd = cfd(objective, p0, 1e-7)
record("glider_segments.py", "correct", g["total_grad"], fd)
