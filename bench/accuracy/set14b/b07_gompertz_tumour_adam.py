"""Gompertz tumour growth fitted to caliper volumes of two mouse cohorts.

log V(t) = log K + (log V0 - log K) exp(-a_c t) with a cohort-specific growth
rate a_c (control / treated) and a shared log carrying capacity log K.
Parameters are trained with warp.optim.Adam; a fresh tape per iteration.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

DAYS = np.arange(2.0, 30.0, 2.0, dtype=np.float32)
N_MICE = 12
COHORT = np.array([0] * 6 + [1] * 6, dtype=np.int32)
LOG_V0 = np.log(np.linspace(40.0, 70.0, N_MICE)).astype(np.float32)
_rng = np.random.default_rng(11)
_true_a = np.array([0.12, 0.07])
LOG_OBS = (np.log(1500.0) + (LOG_V0[:, None] - np.log(1500.0)) * np.exp(-_true_a[COHORT][:, None] * DAYS[None, :])
           + 0.03 * _rng.standard_normal((N_MICE, DAYS.size))).astype(np.float32)


@wp.kernel
def gompertz_misfit(rate: wp.array(dtype=float), cap: wp.array(dtype=float), cohort: wp.array(dtype=int),
                    log_v0: wp.array(dtype=float), days: wp.array(dtype=float), obs: wp.array2d(dtype=float),
                    loss: wp.array(dtype=float)):
    m, k = wp.tid()
    a = rate[cohort[m]]
    pred = cap[0] + (log_v0[m] - cap[0]) * wp.exp(-a * days[k])
    d = pred - obs[m, k]
    wp.atomic_add(loss, 0, d * d)


DATA = [wp.array(COHORT, dtype=int), wp.array(LOG_V0, dtype=float), wp.array(DAYS, dtype=float),
        wp.array(LOG_OBS, dtype=float)]


def record(rate, cap):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gompertz_misfit, dim=(N_MICE, DAYS.size), inputs=[rate, cap] + DATA, outputs=[loss])
    return tape, loss


def objective(a, log_k):
    rate = wp.array(np.asarray(a, dtype=np.float32), dtype=float)
    cap = wp.array([log_k], dtype=float)
    return float(record(rate, cap)[1].numpy()[0])


def train(n_iter, report_at=None):
    rate = wp.array([0.09, 0.09], dtype=float, requires_grad=True)
    cap = wp.array([np.log(1200.0)], dtype=float, requires_grad=True)
    opt = Adam([rate, cap], lr=0.004)
    seen = None
    for it in range(n_iter):
        tape, loss = record(rate, cap)
        tape.backward(loss)
        if it == report_at:
            seen = (rate.numpy().copy(), cap.numpy().copy(), np.concatenate([rate.grad.numpy(), cap.grad.numpy()]))
        opt.step([rate.grad, cap.grad])
        rate.grad.zero_()  # expect: missing_zero
    return rate, cap, seen


def verify():
    _, _, (a, log_k, g) = train(8, report_at=6)
    fd = []
    for k in range(3):
        h = 1e-3
        ap, am, kp, km = a.copy(), a.copy(), float(log_k[0]), float(log_k[0])
        if k < 2:
            ap[k] += h
            am[k] -= h
        else:
            kp += h
            km -= h
        fd.append((objective(ap, kp) - objective(am, km)) / (2 * h))
    return g, np.array(fd)


if __name__ == "__main__":
    rate, cap, _ = train(60)
    print("growth rates", rate.numpy(), "carrying capacity", float(np.exp(cap.numpy()[0])))
