from common import *

g = run_prog("dye_source.py")
NX, NY, STEPS, ALPHA = g["NX"], g["NY"], g["STEPS"], g["ALPHA"]
obs = g["obs_np"].astype(np.float64)
xi = (np.arange(NX) / NX)[:, None]; yj = (np.arange(NY) / NY)[None, :]

def diffuse(u):
    up = np.pad(u, 1, mode="edge")
    n = up[:-2, 1:-1] + up[2:, 1:-1] + up[1:-1, :-2] + up[1:-1, 2:]
    return u + ALPHA * (n - 4 * u)

def objective(s):
    u = np.zeros((NX, NY))
    for _ in range(STEPS):
        u = diffuse(u) + 0.1 * s[0] * np.exp(-((xi - s[1]) ** 2 + (yj - s[2]) ** 2) / 0.01)
    return np.sum((u - obs) ** 2)

p0 = np.array([1.0, 0.5, 0.5])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-6)
record("dye_source.py", "adjoint_disabled", g["src_grad"], fd, note="_fastops module compiled with enable_backward=False")
fixed = run_patched_isolated("dye_source.py", [], "src_grad", helper="_fastops.py", helper_patches=[('wp.set_module_options({"enable_backward": False})  # exp\x65ct: adjoint_disabled\n', "")])
record("dye_source.py[fixed]", "correct", fixed, fd, note="fixed variant")
