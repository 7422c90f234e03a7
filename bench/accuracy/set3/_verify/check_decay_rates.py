from common import *

g = run_prog("decay_rates.py")
t = g["t_np"].astype(np.float64); meas = g["meas_np"].astype(np.float64)
w = np.array([0.6, 0.4])

def objective(raw):
    r = np.log1p(np.exp(raw))
    s = (w[None, :] * np.exp(-r[None, :] * t[:, None])).sum(1)
    return np.sum((np.log(s) - np.log(meas)) ** 2)

p0 = np.array([-0.5, 1.0])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-6)
record("decay_rates.py", "custom_adjoint", g["rates_grad"], fd, note="softplus adjoint uses sigmoid(-x) instead of sigmoid(x)")
gf = run_patched("decay_rates.py", [], helper="_activations.py", helper_patches=[("adj_ret / (1.0 + wp.exp(x))", "adj_ret / (1.0 + wp.exp(-x))")])
record("decay_rates.py[fixed]", "correct", gf["rates_grad"], fd, note="fixed variant")
