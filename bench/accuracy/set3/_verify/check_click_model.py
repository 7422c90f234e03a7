from common import *

g = run_prog("click_model.py")
X = g["X_np"].astype(np.float64); y = g["y_np"].astype(np.float64)

def objective(p):
    z = X @ p[:4] + p[4]
    return np.mean(np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z))) - y * z)

ads, fds = [], []
for w, b, l, gw, gb in g["trace"]:
    p = np.concatenate([w, b]).astype(np.float64)
    assert abs(objective(p) - l) < 1e-5
    ads.append(np.concatenate([gw, gb])); fds.append(cfd(objective, p, 1e-5))
print("epoch0 ad", ads[0], "fd", fds[0])
record("click_model.py", "missing_zero", np.concatenate(ads[1:3]), np.concatenate(fds[1:3]), note="epochs 1-2 (epoch 0 matches)")
gf = run_patched("click_model.py", [("    tape.backward(loss)  # exp\x65ct: missing_zero\n", "    tape.backward(loss)\n"), ("    wp.launch(sgd_step, dim=1, inputs=[b, b.grad, LR])\n", "    wp.launch(sgd_step, dim=1, inputs=[b, b.grad, LR])\n    tape.zero()\n")])
ads, fds = [], []
for w, b, l, gw, gb in gf["trace"]:
    p = np.concatenate([w, b]).astype(np.float64)
    ads.append(np.concatenate([gw, gb])); fds.append(cfd(objective, p, 1e-5))
record("click_model.py[fixed]", "correct", np.concatenate(ads), np.concatenate(fds), note="fixed variant: tape.zero() each epoch")
