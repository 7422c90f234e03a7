"""Vertical dynamics of a small quadrotor under a PD altitude controller with rotor lag.

A batch of take-off scenarios (different payload masses and set points); thrust
saturates smoothly, rotor thrust follows the command with a first-order lag,
and drag is quadratic in the climb rate.
"""
import numpy as np
import warp as wp

N_SCEN = 12
N_STEPS = 60
DT = 0.02
T_MAX = 30.0  # N
TAU_ROTOR = 0.08  # s


@wp.kernel
def climb_step(z: wp.array2d(dtype=float), vz: wp.array2d(dtype=float), thrust: wp.array2d(dtype=float),
               mass: wp.array(dtype=float), z_ref: wp.array(dtype=float), gains: wp.array(dtype=float), t: int,
               cost: wp.array(dtype=float)):
    # gains: kp [N/m], kd [N s/m], hover feed-forward [fraction of m g]
    s = wp.tid()
    m = mass[s]
    e = z_ref[s] - z[t, s]
    cmd = gains[2] * m * 9.81 + gains[0] * e - gains[1] * vz[t, s]
    cmd = 0.5 * T_MAX * (1.0 + wp.tanh(2.0 * cmd / T_MAX - 1.0))
    f = thrust[t, s] + DT / TAU_ROTOR * (cmd - thrust[t, s])
    a = f / m - 9.81 - 0.15 * vz[t, s] * wp.abs(vz[t, s]) / m
    thrust[t + 1, s] = f
    vz[t + 1, s] = vz[t, s] + DT * a
    z[t + 1, s] = z[t, s] + DT * vz[t + 1, s]
    d = z[t + 1, s] - z_ref[s]
    wp.atomic_add(cost, 0, d * d / float(N_SCEN))


@wp.kernel
def sgd_update(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = p[i] - lr[i] * g[i]


def scenarios(seed=12):
    rng = np.random.default_rng(seed)
    return rng.uniform(0.9, 1.6, N_SCEN).astype(np.float32), rng.uniform(1.0, 3.0, N_SCEN).astype(np.float32)
