"""Planar three-link arm (shoulder, elbow, wrist) with a payload at the gripper: statics in Warp."""
import numpy as np
import warp as wp

LINK_LEN = wp.constant(wp.vec3(0.45, 0.38, 0.12))  # m
GRAV = 9.81


@wp.kernel
def holding_cost(q: wp.array(dtype=float), mass: wp.array(dtype=float), target: wp.vec2, w_pos: float,
                 cost: wp.array(dtype=float)):
    # mass[0..2]: link masses (centre of mass at mid-link), mass[3]: payload at the gripper
    j = wp.tid()  # joint whose gravity torque this thread evaluates
    a = float(0.0)
    x = float(0.0)
    y = float(0.0)
    tau = float(0.0)
    xj = float(0.0)
    for k in range(3):
        a = a + q[k]
        if k == j:
            xj = x
        xm = x + 0.5 * LINK_LEN[k] * wp.cos(a)
        x = x + LINK_LEN[k] * wp.cos(a)
        y = y + LINK_LEN[k] * wp.sin(a)
        if k >= j:
            tau = tau + mass[k] * GRAV * (xm - xj)
    tau = tau + mass[3] * GRAV * (x - xj)
    wp.atomic_add(cost, 0, tau * tau)
    if j == 0:
        d = wp.vec2(x, y) - target
        wp.atomic_add(cost, 0, w_pos * wp.dot(d, d))
