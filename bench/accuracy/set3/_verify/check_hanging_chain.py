from common import *

g = run_prog("hanging_chain.py")
NP, STEPS, DT, REST = g["NP"], g["STEPS"], g["DT"], g["REST"]
x0 = g["x0"].astype(np.float64)
marker = g["marker"].numpy().astype(np.float64); grav = np.array([0.0, -9.8])

def objective(k):
    x = x0.copy(); v = np.zeros_like(x)
    for t in range(STEPS):
        f = np.zeros_like(x)
        for s in range(NP - 1):
            d = x[s + 1] - x[s]; L = np.linalg.norm(d); n = d / L
            fs = k[0] * (L - REST) * n
            f[s] += fs; f[s + 1] -= fs
        vn = (1 - 0.5 * DT) * v + DT * (f + grav); vn[0] = 0
        xn = x + DT * vn; xn[0] = x[0]
        x, v = xn, vn
    return np.sum((x - marker) ** 2)

print("forward np", objective([60.0]), "warp", g["loss_value"])
fd = cfd(objective, [60.0], 1e-3)
record("hanging_chain.py", "overwrite", [g["k_grad"]], fd, note="wp.copy(x, x_next) overwrites x read by spring_forces")

# fix only the x copy: rebind x to a fresh array each step, keep the v copy
gf = run_patched("hanging_chain.py", [
    ("        wp.copy(x, x_next)", "        x = x_next\n        x_next = wp.zeros_like(x)"),
])
record("hanging_chain.py[fixed-x-only]", "correct", [gf["k_grad"]], fd, note="fixed variant: only the x copy replaced, v copy kept")
