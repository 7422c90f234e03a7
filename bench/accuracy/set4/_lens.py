import warp as wp


@wp.func
def distort(p: wp.vec2, k1: wp.float32, k2: wp.float32):
    r2 = wp.dot(p, p)
    s = 1.0 + k1 * r2 + k2 * r2 * r2
    q = wp.vec2(p[0] * s, p[1] * s)
    q[1] += 0.01 * k1 * p[0]
    return q
