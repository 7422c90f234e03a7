from common import *

g = run_prog("root_relaxation.py")
c = g["coeffs_np"].astype(np.float64)

def objective(x):
    return 0.5 * np.sum(np.polyval(c, x) ** 2)

p0 = np.array([1.2, -0.8, 0.4, 1.9])
print("forward np", objective(p0), "warp", g["energy_value"])
fd = cfd(objective, p0, 1e-6)
record("root_relaxation.py", "dynamic_loop", g["probe_grad"], fd, note="Horner loop-carried acc*x in range(c.shape[0])")
gf = run_patched("root_relaxation.py", [], helper="_poly.py", helper_patches=[
    ("    for k in range(c.shape[0]):\n        acc = acc * x + c[k]  # exp\x65ct: dynamic_loop",
     "    n = c.shape[0]\n    for k in range(n):\n        acc += c[k] * wp.pow(x, float(n - 1 - k))")])
record("root_relaxation.py[fixed]", "correct", gf["probe_grad"], fd, note="fixed variant: += of powers")
