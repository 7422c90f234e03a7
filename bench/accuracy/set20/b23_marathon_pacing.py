"""Marathon pacing: 5 km split times of a runner are modelled with a cruise
speed and a quadratic late-race fatigue term (glycogen depletion); both are
fitted with warp.optim.SGD, recording a fresh tape every iteration.
"""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True

N_SPLIT = 8
DIST_KM = np.arange(1, N_SPLIT + 1) * 5.0 - 2.5
SPLIT_OBS_MIN = np.array([17.6, 17.5, 17.6, 17.8, 18.1, 18.6, 19.3, 20.2])
PARAMS0 = np.array([4.6, 0.12])  # cruise speed m/s, fatigue fraction at 42 km


@wp.kernel
def split_time(d: wp.array(dtype=float), p: wp.array(dtype=float), t: wp.array(dtype=float)):
    i = wp.tid()
    x = d[i] / 42.195
    v = p[0] * (1.0 - p[1] * x * x)
    t[i] = 5000.0 / v / 60.0


@wp.kernel
def split_loss(t: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = t[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_SPLIT))


D_W = wp.array(DIST_KM, dtype=float)
OBS_W = wp.array(SPLIT_OBS_MIN, dtype=float)


def forward(p, splits):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(split_time, dim=N_SPLIT, inputs=[D_W, p], outputs=[splits])
    wp.launch(split_loss, dim=N_SPLIT, inputs=[splits, OBS_W], outputs=[loss])
    return loss


def fit(n_iter, trace=None):
    p = wp.array(PARAMS0, dtype=float, requires_grad=True)
    splits = wp.zeros(N_SPLIT, dtype=float, requires_grad=True)
    opt = SGD([p], lr=0.002)
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = forward(p, splits)
        tape.backward(loss)
        if trace is not None:
            trace.append((p.numpy().copy(), p.grad.numpy().copy(), float(loss.numpy()[0])))
        opt.step([p.grad])
        splits.grad.zero_()  # expect: missing_zero
    return p


def loss_at(p_np):
    return float(forward(wp.array(p_np, dtype=float), wp.zeros(N_SPLIT, dtype=float)).numpy()[0])


def verify():
    trace = []
    fit(5, trace=trace)
    p_last, g_used, _ = trace[-1]
    eps = np.array([1e-3, 1e-3])
    fd = np.array([(loss_at(p_last + eps * e) - loss_at(p_last - eps * e)) / (2.0 * eps[k])
                   for k, e in enumerate(np.eye(2))])
    return g_used, fd


if __name__ == "__main__":
    trace = []
    p = fit(200, trace=trace)
    print(f"split misfit {trace[-1][2]:.4f} min^2  cruise {p.numpy()[0]:.3f} m/s  fatigue {p.numpy()[1]:.3f}")
