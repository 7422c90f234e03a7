"""A pinned mass-spring rope in 3-D, semi-implicit Euler."""

import numpy as np
import warp as wp


@wp.struct
class RopeState:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)


def rope_state(n, requires_grad=True):
    s = RopeState()
    s.x = wp.zeros(n, dtype=wp.vec3, requires_grad=requires_grad)
    s.v = wp.zeros(n, dtype=wp.vec3, requires_grad=requires_grad)
    return s


def clone_state(s):
    c = RopeState()
    c.x = wp.clone(s.x)
    c.v = wp.clone(s.v)
    return c


def initial_rope(n, seg):
    s = rope_state(n)
    s.x.assign(np.array([(seg * i, 0.0, 0.0) for i in range(n)], dtype=np.float32))
    return s


@wp.kernel
def rope_step(
    s: RopeState,
    wind: wp.array(dtype=wp.vec3),
    rest: float,
    stiffness: float,
    drag: float,
    dt: float,
    out: RopeState,
):
    i = wp.tid()
    n = s.x.shape[0]
    xi = s.x[i]
    f = wp.vec3(0.0, -9.81, 0.0) + wind[0] - drag * s.v[i]
    if i > 0:
        d = xi - s.x[i - 1]
        l = wp.length(d)
        f = f - stiffness * (l - rest) * d / l
    if i < n - 1:
        d = s.x[i + 1] - xi
        l = wp.length(d)
        f = f + stiffness * (l - rest) * d / l
    v1 = s.v[i] + f * dt
    if i == 0:
        v1 = wp.vec3(0.0)
    out.v[i] = v1
    out.x[i] = xi + v1 * dt


@wp.kernel
def tip_distance(s: RopeState, target: wp.vec3, weight: float, loss: wp.array(dtype=float)):
    d = s.x[s.x.shape[0] - 1] - target
    wp.atomic_add(loss, 0, weight * wp.dot(d, d))
