from common import *

g = run_prog("spray_nozzle.py")
STEPS, DT, DRAG = g["STEPS"], g["DT"], g["DRAG"]
spread = g["spread_np"].astype(np.float64)
targets = g["targets"].numpy().astype(np.float64)

def objective(p):
    v = p[None, :] + spread; x = np.zeros_like(v)
    for t in range(STEPS):
        a = np.array([0, -9.81, 0]) - DRAG * np.linalg.norm(v, axis=1, keepdims=True) * v
        v = v + DT * a
        x = x + DT * v
    return np.sum((x - targets) ** 2)

p0 = np.array([2.0, 2.5, 0.0])
print("forward np", objective(p0), "warp", g["err_value"], "final y", g["xs"][-1].numpy()[:, 1])
fd = cfd(objective, p0, 1e-5)
record("spray_nozzle.py", "untaped_write", g["nozzle_grad"], fd, note="numpy view of xs[STEPS] clamped in place before backward")
gf = run_patched("spray_nozzle.py", [("frame = xs[STEPS].numpy()\n", "frame = xs[STEPS].numpy().copy()\n")])
record("spray_nozzle.py[fixed]", "correct", gf["nozzle_grad"], fd, note="fixed variant: copy before clamping")
