import warp as wp


@wp.func
def project(p: wp.vec3, focal: wp.float32, skew: wp.float32):
    q = wp.vec3(focal * p[0] / p[2], focal * p[1] / p[2], 1.0)
    q[0] = q[0] + skew * q[1]  # expect: component_reassign
    return wp.vec2(q[0], q[1])
