from common import *

g = run_prog("tiny_regressor.py")
L = g["layers"]
W1 = L["hidden"].W.numpy().astype(np.float64); b1 = L["hidden"].b.numpy().astype(np.float64)
W2 = L["out"].W.numpy().astype(np.float64); b2 = L["out"].b.numpy().astype(np.float64)
xs = g["xs"].astype(np.float64); ys = g["ys"].astype(np.float64)

def fwd(W1_):
    z = xs @ W1_.T + b1
    h = z / (1 + np.abs(z))
    p = h @ W2.T + b2
    return np.sum((p - ys) ** 2) / xs.shape[0]

print("forward np", fwd(W1), "warp", g["loss_value"])
fd = cfd(fwd, W1, 1e-5)
ad = L["hidden"].W.grad.numpy()
record("tiny_regressor.py", "requires_grad", ad, fd, note="hidden.W grad (softsign output allocated without requires_grad)")
gf = run_patched("tiny_regressor.py", [], helper="_layers.py", helper_patches=[("y = wp.empty(x.shape, dtype=float)", "y = wp.empty(x.shape, dtype=float, requires_grad=True)")])
record("tiny_regressor.py[fixed]", "correct", gf["layers"]["hidden"].W.grad.numpy(), fd, note="fixed variant")
