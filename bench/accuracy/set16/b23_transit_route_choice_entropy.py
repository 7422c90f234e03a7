"""Multimodal route choice in a mid-size city during a bridge closure:
calibrate the logit dispersion and the bus and rail penalties (in-vehicle
minutes) to observed route shares and to the route-choice entropy measured
by licence-plate / smart-card matching for six origin-destination pairs.

Routes per OD pair: car via bridge, car via ring road, bus, rail. Closed
routes (the bridge, rail where there is no line) have zero share.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_OD = 6
N_ROUTE = 4
MODE = np.array([0, 0, 1, 2], dtype=np.int32)  # car, car, bus, rail
TIME = np.array([[14, 22, 27, 19], [18, 25, 31, 24], [11, 19, 22, 30], [25, 31, 36, 28], [9, 16, 21, 40],
                 [21, 24, 33, 26]], dtype=np.float32)  # minutes
OPEN = np.array([[0, 1, 1, 1], [0, 1, 1, 1], [1, 1, 1, 0], [0, 1, 1, 1], [1, 1, 1, 0], [0, 1, 1, 1]],
                dtype=np.float32)


@wp.kernel
def route_weights(prm: wp.array(dtype=float), tt: wp.array2d(dtype=float), open_: wp.array2d(dtype=float),
                  mode: wp.array(dtype=int), w: wp.array2d(dtype=float), den: wp.array(dtype=float)):
    od, r = wp.tid()
    pen = float(0.0)
    if mode[r] == 1:
        pen = prm[1]
    if mode[r] == 2:
        pen = prm[2]
    x = open_[od, r] * wp.exp(-prm[0] * (tt[od, r] + pen))
    w[od, r] = x
    wp.atomic_add(den, od, x)


@wp.kernel
def route_share(w: wp.array2d(dtype=float), den: wp.array(dtype=float), p: wp.array2d(dtype=float)):
    od, r = wp.tid()
    p[od, r] = w[od, r] / den[od]


@wp.kernel
def share_stats(p: wp.array2d(dtype=float), q: wp.array2d(dtype=float), ent: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    od, r = wp.tid()
    s = p[od, r]
    h = wp.where(s > 0.0, s * wp.log(s), 0.0)  # expect: nonfinite
    wp.atomic_add(ent, od, -h)
    d = s - q[od, r]
    wp.atomic_add(loss, 0, 10.0 * d * d)


@wp.kernel
def entropy_misfit(ent: wp.array(dtype=float), ent_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    od = wp.tid()
    d = ent[od] - ent_obs[od]
    wp.atomic_add(loss, 0, d * d)


TT_W, OPEN_W, MODE_W = wp.array(TIME, dtype=float), wp.array(OPEN, dtype=float), wp.array(MODE, dtype=int)


def shares(p):
    u = -p[0] * (TIME + np.array([0.0, 0.0, p[1], p[2]])[None, :])
    w = OPEN * np.exp(u)
    return w / w.sum(axis=1, keepdims=True)


_q = shares([0.18, 6.0, 2.0])
_rng = np.random.default_rng(71)
Q_W = wp.array((_q * (1 + 0.05 * _rng.standard_normal(_q.shape))).astype(np.float32), dtype=float)
ENT_W = wp.array((-(np.where(_q > 0, _q * np.log(np.where(_q > 0, _q, 1.0)), 0.0)).sum(axis=1)
                  + 0.02 * _rng.standard_normal(N_OD)).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    w = wp.zeros((N_OD, N_ROUTE), dtype=float, requires_grad=True)
    den = wp.zeros(N_OD, dtype=float, requires_grad=True)
    share = wp.zeros((N_OD, N_ROUTE), dtype=float, requires_grad=True)
    ent = wp.zeros(N_OD, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(route_weights, dim=(N_OD, N_ROUTE), inputs=[prm, TT_W, OPEN_W, MODE_W], outputs=[w, den])
        wp.launch(route_share, dim=(N_OD, N_ROUTE), inputs=[w, den], outputs=[share])
        wp.launch(share_stats, dim=(N_OD, N_ROUTE), inputs=[share, Q_W], outputs=[ent, loss])
        wp.launch(entropy_misfit, dim=N_OD, inputs=[ent, ENT_W], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.15, 4.0, 3.0])  # dispersion (1/min), bus penalty (min), rail penalty (min)
FD_EPS = np.array([1e-4, 1e-3, 1e-3])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"share + entropy misfit {f:.4f}; d/d(theta, bus penalty, rail penalty) = {g}")
