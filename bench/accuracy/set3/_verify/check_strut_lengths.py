from common import *

g = run_prog("strut_lengths.py")
S = g["struts_np"]; rest = g["rest_np"].astype(np.float64); k = g["stiff_np"].astype(np.float64)

def objective(J):
    d = J[S[:, 1]] - J[S[:, 0]]
    L = np.sqrt(np.sum(d * d, axis=1) + 1e-9)
    return np.sum(0.5 * k * (L - rest) ** 2)

J0 = g["joints_np"].astype(np.float64)
print("forward np", objective(J0), "warp", g["energy_value"])
fd = cfd(objective, J0, 1e-6)
record("strut_lengths.py", "custom_adjoint", g["joint_grad"], fd, note="safe_norm adjoint drops adj_ret")
gf = run_patched("strut_lengths.py", [("    wp.adjoint[v] += v / n  # exp\x65ct: custom_adjoint", "    wp.adjoint[v] += adj_ret * v / n")])
record("strut_lengths.py[fixed]", "correct", gf["joint_grad"], fd, note="fixed variant")
