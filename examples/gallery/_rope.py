"""Mass-spring rope with quadratic air drag; one fresh state per substep."""

import numpy as np
import warp as wp


@wp.struct
class RopeState:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)


def alloc_state(n: int, x_init=None) -> RopeState:
    s = RopeState()
    s.x = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    s.v = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    if x_init is not None:
        s.x.assign(x_init)
    return s


@wp.kernel
def rope_step(
    cur: RopeState,
    wind: wp.array(dtype=wp.vec3),
    rest: float,
    stiffness: float,
    drag: float,
    dt: float,
    nxt: RopeState,
):
    i = wp.tid()
    n = cur.x.shape[0]
    if i == 0:
        nxt.x[i] = cur.x[i]
        nxt.v[i] = wp.vec3()
        return
    xi = cur.x[i]
    f = wp.vec3(0.0, -9.81, 0.0)
    d = cur.x[i - 1] - xi
    L = wp.length(d)
    f += stiffness * (L - rest) * d / L
    if i < n - 1:
        d2 = cur.x[i + 1] - xi
        L2 = wp.length(d2)
        f += stiffness * (L2 - rest) * d2 / L2
    rel = wind[0] - cur.v[i]
    f += drag * wp.length(rel) * rel
    v_new = (cur.v[i] + dt * f) * 0.995
    nxt.v[i] = v_new
    nxt.x[i] = xi + dt * v_new
