from common import *

g = run_prog("white_balance.py")
img = g["img_np"].astype(np.float64)

def objective(gn):
    m = (img * gn).mean(axis=(0, 1))
    return np.sum((m - 0.5) ** 2 + 0.01 * np.log(1 + m * m))

p0 = np.array([0.8, 1.1, 1.3])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("white_balance.py", "correct", g["gains_grad"], fd)
