from common import *

g = run_prog("subpixel_shift.py")
H, W = g["H"], g["W"]
yy, xx = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
ref = g["ref_np"].astype(np.float64)

def objective(s):
    xs, ys = xx + s[0], yy + s[1]
    w = np.sin(0.35 * xs) * np.cos(0.25 * ys) + 0.3 * np.sin(0.1 * xs * ys / 8.0)
    return np.mean((w - ref) ** 2)

p0 = np.zeros(2)
print("forward np", objective(p0), "warp", g["mean_error"])
fd = cfd(objective, p0, 1e-6)
record("subpixel_shift.py", "seeding", g["shift_grad"], fd, note="seed 1/H instead of 1/(H*W): W x too large")
gf = run_patched("subpixel_shift.py", [("err.grad.fill_(1.0 / err.shape[0])", "err.grad.fill_(1.0 / err.size)")])
record("subpixel_shift.py[fixed]", "correct", gf["shift_grad"], fd, note="fixed variant")
