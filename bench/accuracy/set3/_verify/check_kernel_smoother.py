from common import *

g = run_prog("kernel_smoother.py")
xt = g["x_train"].astype(np.float64); yt = g["y_train"].astype(np.float64)
xq = g["x_val"].astype(np.float64); yq = g["y_val"].astype(np.float64)

def objective(lh):
    h = np.exp(lh[0])
    w = np.exp(-(xq[:, None] - xt[None, :]) ** 2 / (2 * h * h))
    p = (w * yt).sum(1) / (w.sum(1) + 1e-6)
    return np.mean((p - yq) ** 2)

p0 = np.array([np.log(np.float32(0.6))], dtype=np.float64)
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("kernel_smoother.py", "dynamic_loop", [g["log_h_grad"]], fd, note="num/den accumulated in range(xt.shape[0]) loop, divided after the loop")
gf = run_patched("kernel_smoother.py", [
    ("    num = float(0.0)\n    den = float(0.0)\n    for k in range(xt.shape[0]):", "    num = float(0.0)\n    den = float(0.0)\n    for k in range(40):"),
    ("    pred[i] = num / (den + 1.0e-6)  # exp\x65ct: dynamic_loop", "    pred[i] = num / (den + 1.0e-6)"),
])
print("static range(40) variant:", gf["log_h_grad"])
gf = run_patched("kernel_smoother.py", [
    ("import warp as wp\n", "import warp as wp\n\nwp.set_module_options({'max_unroll': 64})\n"),
    ("    num = float(0.0)\n    den = float(0.0)\n    for k in range(xt.shape[0]):", "    num = float(0.0)\n    den = float(0.0)\n    for k in range(40):"),
    ("    pred[i] = num / (den + 1.0e-6)  # exp\x65ct: dynamic_loop", "    pred[i] = num / (den + 1.0e-6)"),
])
record("kernel_smoother.py[fixed]", "correct", [gf["log_h_grad"]], fd, note="fixed variant: constant bound 40 with max_unroll=64 (unrolled)")
