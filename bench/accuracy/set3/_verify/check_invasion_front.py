from common import *

g = run_prog("invasion_front.py")
N, STEPS, DT, DIFF = g["N"], g["STEPS"], g["DT"], g["DIFF"]
u0 = g["initial_profile"]().astype(np.float64)
obs = g["obs"].numpy().astype(np.float64)

def objective(r):
    u = u0.copy()
    for t in range(STEPS):
        l = u[np.maximum(np.arange(N) - 1, 0)]; rr = u[np.minimum(np.arange(N) + 1, N - 1)]
        u = u + DT * (DIFF * (l - 2 * u + rr) + r[0] * u * (1 - u))
    return np.mean((u - obs) ** 2)

print("forward np", objective([0.8]), "warp", g["loss_value"])
fd = cfd(objective, [0.8], 1e-4)
record("invasion_front.py", "overwrite", [g["rate_grad"]], fd)

# the fix: one buffer per step
gf = run_patched("invasion_front.py", [
    ("    wp.zeros(N, dtype=float, requires_grad=True),\n]", "] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]"),
    ("outputs=[front[(t + 1) % 2]])", "outputs=[front[t + 1]])"),
    ("inputs=[front[t % 2], rate", "inputs=[front[t], rate"),
    ("final = front[STEPS % 2]", "final = front[STEPS]"),
])
record("invasion_front.py[fixed]", "correct", [gf["rate_grad"]], fd, note="fixed variant")
