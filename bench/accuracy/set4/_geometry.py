import warp as wp


@wp.func
def safe_len(v: wp.vec3):
    return wp.sqrt(wp.dot(v, v) + 1.0e-8)


@wp.func_grad(safe_len)
def adj_safe_len(v: wp.vec3, adj_ret: wp.float32):
    n = wp.sqrt(wp.dot(v, v) + 1.0e-8)
    wp.adjoint[v] = adj_ret * v / n  # expect: custom_adjoint


@wp.func
def bend_energy(a: wp.vec3, b: wp.vec3, c: wp.vec3, k: wp.float32):
    e0 = b - a
    e1 = c - b
    l0 = safe_len(e0)
    l1 = safe_len(e1)
    cos_t = wp.dot(e0, e1) / (l0 * l1)
    return k * (1.0 - cos_t)
