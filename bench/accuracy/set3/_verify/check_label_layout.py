from common import *

g = run_prog("label_layout.py")
A = g["anchors_np"].astype(np.float64); H = g["H"]

def objective(P):
    d = P[:, None, :] - P[None, :, :]
    r = np.sqrt(np.sum(d * d, axis=2))
    return np.sum(0.5 * np.exp(-r / H)) + np.sum(2.0 * (P - A) ** 2)

P0 = g["pos"].numpy().astype(np.float64)
print("forward np", objective(P0), "warp", g["energy_value"])
fd = cfd(objective, P0, 1e-6)
record("label_layout.py", "nonfinite", g["pos_grad"], fd, note="sqrt(dot(d,d)) on the i==j diagonal")
gf = run_patched("label_layout.py", [("    d = pos[i] - pos[j]\n", "    if i == j:\n        return\n    d = pos[i] - pos[j]\n")])
# the guarded version drops the constant diagonal terms (0.5 each) from the energy; gradient unchanged
record("label_layout.py[fixed]", "correct", gf["pos_grad"], fd, note="fixed variant: skip i == j")
gf2 = run_patched("label_layout.py", [("    r = wp.sqrt(wp.dot(d, d))  # exp\x65ct: nonfinite", "    r = wp.length(d)")])
record("label_layout.py[fixed-marker-line]", "correct", gf2["pos_grad"], fd, note="fixed variant: marker line replaced by wp.length(d)")
