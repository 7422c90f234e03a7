from common import *

g = run_prog("contour_fitter.py")
f = g["fitter"]
phi = f.phi.numpy().astype(np.float64); S = g["samples_np"].astype(np.float64)

def objective(c):
    r = c[0] + sum(c[2 * k - 1] * np.cos(k * phi) + c[2 * k] * np.sin(k * phi) for k in range(1, 4))
    P = np.stack([r * np.cos(phi), r * np.sin(phi)], axis=1)
    d2 = np.sum((P[None, :, :] - S[:, None, :]) ** 2, axis=2)
    w = np.exp(-20 * d2)
    return np.mean(np.sum(w * d2, axis=1) / (np.sum(w, axis=1) + 1e-8))

ads, fds = [], []
for c, l, gr in f.history:
    assert abs(objective(c.astype(np.float64)) - l) < 1e-5 * max(1, l), (objective(c), l)
    ads.append(gr); fds.append(cfd(objective, c.astype(np.float64), 1e-5))
print("step0 ad", ads[0][:3], "fd", fds[0][:3])
record("contour_fitter.py", "missing_zero", np.concatenate(ads[1:]), np.concatenate(fds[1:]), note="steps 1-3 (step 0 matches)")
gf = run_patched("contour_fitter.py", [("        self.tape.zero()  # exp\x65ct: missing_zero\n", ""),
    ("        self.opt.step([self.coeffs.grad])\n", "        self.opt.step([self.coeffs.grad])\n        self.tape.zero()\n")])
ads, fds = [], []
for c, l, gr in gf["fitter"].history:
    ads.append(gr); fds.append(cfd(objective, c.astype(np.float64), 1e-5))
record("contour_fitter.py[fixed]", "correct", np.concatenate(ads), np.concatenate(fds), note="fixed variant: tape.zero() after the update (zeroing only coeffs.grad is NOT enough: intermediate grads also accumulate)")
