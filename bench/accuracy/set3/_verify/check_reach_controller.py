from common import *

g = run_prog("reach_controller.py")
H, DT = g["HORIZON"], g["DT"]
goal = np.array([1.0, 0.5])

def make_obj(x0):
    def objective(p):
        x = x0.astype(np.float64).copy(); v = np.zeros_like(x)
        for t in range(H):
            ref = x0 + (t + 1) / H * (goal - x0)
            u = np.tanh(p[0] * (ref - x)) - p[1] * v
            v = v + DT * u
            x = x + DT * v
        return np.mean(np.sum((x - goal) ** 2, axis=1))
    return objective

ads, fds = [], []
for it, (x0, p, c, grad) in enumerate(g["log"]):
    obj = make_obj(x0)
    assert abs(obj(p.astype(np.float64)) - c) < 1e-4 * max(1, c), (obj(p), c)
    ads.append(grad); fds.append(cfd(obj, p.astype(np.float64), 1e-5))
record("reach_controller.py", "untaped_write", np.concatenate(ads[:2]), np.concatenate(fds[:2]), note="iters 0,1: start.assign before backward")

gf = run_patched("reach_controller.py", [
    ("    start.assign(rng.uniform(-1.0, 1.0, (n_envs, 2)).astype(np.float32))  # exp\x65ct: untaped_write\n\n    tape.backward(cost)\n",
     "    tape.backward(cost)\n    start.assign(rng.uniform(-1.0, 1.0, (n_envs, 2)).astype(np.float32))\n"),
])
ads, fds = [], []
for it, (x0, p, c, grad) in enumerate(gf["log"][:2]):
    obj = make_obj(x0)
    ads.append(grad); fds.append(cfd(obj, p.astype(np.float64), 1e-5))
record("reach_controller.py[fixed]", "correct", np.concatenate(ads), np.concatenate(fds), note="fixed variant: assign after backward")
