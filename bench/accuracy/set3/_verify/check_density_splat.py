from common import *

g = run_prog("density_splat.py")
G = g["G"]
xx, yy = np.meshgrid((np.arange(G) + 0.5) / G, (np.arange(G) + 0.5) / G, indexing="ij")
target = g["target_np"].astype(np.float64)

def objective(P):
    grid = np.zeros((G, G))
    for p in P:
        grid += np.exp(-((p[0] - xx) ** 2 + (p[1] - yy) ** 2) / 0.005)
    return np.sum((grid - target) ** 2)

ads, fds, fwd = [], [], []
for P, l, gr in g["history"]:
    fwd.append((objective(P.astype(np.float64)), l))
    ads.append(gr); fds.append(cfd(objective, P.astype(np.float64), 1e-6))
print("intended forward vs program-reported loss per iter", fwd)
print("iter0 match:", np.max(np.abs(ads[0] - fds[0])) / np.max(np.abs(fds[0])))
record("density_splat.py", "atomic_replay", np.concatenate([a.ravel() for a in ads[1:]]), np.concatenate([f.ravel() for f in fds[1:]]), note="iters 1-2; grid never zeroed between taped iterations (iter 0 matches)")
gf = run_patched("density_splat.py", [("    loss.zero_()\n", "    loss.zero_()\n    grid.zero_()\n")])
ads, fds = [], []
for P, l, gr in gf["history"]:
    ads.append(gr); fds.append(cfd(objective, P.astype(np.float64), 1e-6))
record("density_splat.py[fixed]", "correct", np.concatenate([a.ravel() for a in ads]), np.concatenate([f.ravel() for f in fds]), note="fixed variant: grid.zero_() each iteration")
