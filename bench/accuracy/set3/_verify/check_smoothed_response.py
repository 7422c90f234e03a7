from common import *

g = run_prog("smoothed_response.py")
x = g["x_np"].astype(np.float64); y = g["y_np"].astype(np.float64)
N = len(x); idx = np.arange(N)

def objective(p):
    h = np.tanh(p[0] * x + p[1])
    s = 0.25 * h[np.maximum(idx - 1, 0)] + 0.5 * h + 0.25 * h[np.minimum(idx + 1, N - 1)]
    return np.mean((s * s - y) ** 2)

print("forward np", objective([0.9, 0.1]), "warp", g["loss_value"])
fd = cfd(objective, [0.9, 0.1], 1e-5)
record("smoothed_response.py", "correct", [g["w_grad"], g["b_grad"]], fd, note="arena reuse after a linear stencil reader")
