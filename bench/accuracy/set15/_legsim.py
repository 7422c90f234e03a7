"""Swing-leg model of a quadruped: a batch of two-link legs (hip, knee) as coupled pendulums.

Angles from the vertical, lumped masses at the knee and foot, viscous joint
damping and a PD hip/knee controller toward a swing target. Semi-implicit Euler.
"""
import numpy as np
import warp as wp

N_LEGS = 16
L1 = 0.22  # thigh [m]
L2 = 0.24  # shank [m]
GRAV = 9.81
Q_TARGET = wp.constant(wp.vec2(0.55, -0.35))


class LegState:
    def __init__(self, n):
        self.q = wp.zeros(n, dtype=wp.vec2, requires_grad=True)
        self.qd = wp.zeros(n, dtype=wp.vec2, requires_grad=True)


@wp.kernel
def set_initial(q0: wp.array(dtype=wp.vec2), q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    q[i] = q0[i]
    qd[i] = wp.vec2(0.0, 0.0)


@wp.kernel
def swing_step(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), gains: wp.array(dtype=float), dt: float,
               q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    # gains: kp, kd (per unit inertia); the gravity and coupling terms are nonlinear in the angles
    i = wp.tid()
    a = q[i]
    w = qd[i]
    c = wp.cos(a[0] - a[1])
    acc0 = -GRAV / L1 * wp.sin(a[0]) - 0.35 * c * w[1] * w[1] + gains[0] * (Q_TARGET[0] - a[0]) - gains[1] * w[0]
    acc1 = -GRAV / L2 * wp.sin(a[1]) + 0.35 * c * w[0] * w[0] + gains[0] * (Q_TARGET[1] - a[1]) - gains[1] * w[1]
    w_new = w + dt * wp.vec2(acc0, acc1)
    qd_out[i] = w_new
    q_out[i] = a + dt * w_new


@wp.kernel
def foot_error(q: wp.array(dtype=wp.vec2), foot_target: wp.vec2, loss: wp.array(dtype=float)):
    i = wp.tid()
    a = q[i]
    foot = wp.vec2(L1 * wp.sin(a[0]) + L2 * wp.sin(a[1]), -L1 * wp.cos(a[0]) - L2 * wp.cos(a[1]))
    d = (foot - foot_target) * 100.0
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(q.shape[0]))


def initial_angles(seed=4):
    rng = np.random.default_rng(seed)
    return np.stack([rng.uniform(-0.5, -0.2, N_LEGS), rng.uniform(-0.2, 0.3, N_LEGS)], 1).astype(np.float32)


def foot_target():
    a = np.array([0.55, -0.35])
    return wp.vec2(L1 * np.sin(a[0]) + L2 * np.sin(a[1]), -L1 * np.cos(a[0]) - L2 * np.cos(a[1]))
