"""Planar three-link arm: forward kinematics helpers."""
import warp as wp

LINKS = wp.constant(wp.vec3(0.5, 0.4, 0.25))


@wp.func
def joint_points(q: wp.vec3):
    a0 = q[0]
    a1 = a0 + q[1]
    a2 = a1 + q[2]
    p1 = wp.vec2(LINKS[0] * wp.cos(a0), LINKS[0] * wp.sin(a0))
    p2 = p1 + wp.vec2(LINKS[1] * wp.cos(a1), LINKS[1] * wp.sin(a1))
    p3 = p2 + wp.vec2(LINKS[2] * wp.cos(a2), LINKS[2] * wp.sin(a2))
    return wp.mat33(p1[0], p1[1], 0.0, p2[0], p2[1], 0.0, p3[0], p3[1], 0.0)


@wp.kernel
def forward_kinematics(q: wp.array(dtype=wp.vec3), pts: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    m = joint_points(q[i])
    for k in range(3):
        pts[i, k] = wp.vec2(m[k, 0], m[k, 1])


@wp.kernel
def reach_cost(pts: wp.array2d(dtype=wp.vec2), targets: wp.array(dtype=wp.vec2), floor: float,
               cost: wp.array(dtype=float)):
    i = wp.tid()
    d = pts[i, 2] - targets[i]
    c = wp.dot(d, d)
    for k in range(3):
        h = floor - pts[i, k][1]
        c += 10.0 * wp.log(1.0 + wp.exp(20.0 * h)) / 20.0
    wp.atomic_add(cost, 0, c)
