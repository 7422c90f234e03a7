from common import *

g = run_prog("gated_features.py")
x = g["x_np"].astype(np.float64); y = g["y_np"].astype(np.float64)

def objective(p):
    h = np.tanh(p[0] * x + p[1])
    z = 1.0 * np.exp(-h * h) + 0.1 * x
    return np.mean((z - y) ** 2)

print("forward np", objective([1.0, 0.0]), "warp", g["loss_value"])
fd = cfd(objective, [1.0, 0.0], 1e-5)
record("gated_features.py", "overwrite", [g["w_grad"], g["b_grad"]], fd, note="ptr= view reuses memory of h that gate() read")

gf = run_patched("gated_features.py", [("    arena.reset()  # layer-1 temporaries are dead from here on\n", "")])
record("gated_features.py[fixed]", "correct", [gf["w_grad"], gf["b_grad"]], fd, note="fixed variant (no arena reset)")
