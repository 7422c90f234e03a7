"""Lotka-Volterra lynx-hare model: a few SGD steps on the four rate constants
against fur-trade counts (log-scaled misfit), using warp.optim.SGD."""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True
wp.set_device("cpu")

N_YEAR = 30
DT = 0.1
SUB = 10


@wp.kernel
def lv_year(p: wp.array(dtype=float), s_in: wp.array(dtype=wp.vec2), s_out: wp.array(dtype=wp.vec2)):
    s = s_in[0]
    for k in range(SUB):
        h = s[0]
        l = s[1]
        s = wp.vec2(h + DT * (p[0] * h - p[1] * h * l), l + DT * (p[2] * h * l - p[3] * l))
    s_out[0] = s


@wp.kernel
def count_misfit(s: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), year: int, loss: wp.array(dtype=float)):
    d = s[0] - obs[year]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_YEAR))


def simulate(theta, requires_grad, loss=None, obs=None):
    s = wp.array([wp.vec2(1.0, 0.5)], dtype=wp.vec2, requires_grad=requires_grad)
    traj = []
    for y in range(N_YEAR):
        nxt = wp.zeros(1, dtype=wp.vec2, requires_grad=requires_grad)
        wp.launch(lv_year, dim=1, inputs=[theta, s], outputs=[nxt])
        if loss is not None:
            wp.launch(count_misfit, dim=1, inputs=[nxt, obs, y], outputs=[loss])
        traj.append(nxt)
        s = nxt
    return traj


_traj = simulate(wp.array([0.55, 0.9, 0.75, 0.8], dtype=float), False)
OBS_NP = np.array([t.numpy()[0] for t in _traj], dtype=np.float64) * (1 + 0.02 * np.cos(np.arange(N_YEAR)))[:, None]
OBS = wp.array(OBS_NP.astype(np.float32), dtype=wp.vec2)
THETA0 = np.array([0.5, 0.85, 0.7, 0.85], dtype=np.float32)
N_ITER = 4


def objective(th):
    traj = simulate(wp.array(np.asarray(th, dtype=np.float32), dtype=float), False)
    s = np.array([t.numpy()[0] for t in traj], dtype=np.float64)
    return float(np.sum((s - OBS_NP) ** 2) / N_YEAR)


def train(n_iter=N_ITER):
    theta = wp.array(THETA0, dtype=float, requires_grad=True)
    opt = SGD([theta], lr=0.01)
    used = []
    for it in range(n_iter):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            simulate(theta, True, loss, OBS)
        tape.backward(loss)
        used.append((theta.numpy().astype(np.float64).copy(), theta.grad.numpy().astype(np.float64).copy(),
                     float(loss.numpy()[0])))
        opt.step([theta.grad])
        loss.zero_()  # expect: missing_zero
    return used


def verify():
    th, g, _ = train()[-1]
    fd = np.zeros(4)
    for k in range(4):
        e = np.zeros(4)
        e[k] = 1e-3
        fd[k] = (objective(th + e) - objective(th - e)) / 2e-3
    return g, fd


if __name__ == "__main__":
    for it, (th, g, L) in enumerate(train()):
        print(f"iter {it}: misfit {L:.5f} theta {np.round(th, 4)} grad {np.round(g, 4)}")
