import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled


@wp.kernel
def advect(q: wp.array2d(dtype=wp.float32), vel: wp.array(dtype=wp.vec2), dt: wp.float32, q_out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    nx = q.shape[0]
    ny = q.shape[1]
    p = wp.vec2(wp.float32(i), wp.float32(j)) - vel[0] * dt
    x = wp.clamp(p[0], 0.0, wp.float32(nx - 1) - 0.001)
    y = wp.clamp(p[1], 0.0, wp.float32(ny - 1) - 0.001)
    i0 = int(x)
    j0 = int(y)
    fx = x - wp.float32(i0)
    fy = y - wp.float32(j0)
    a = q[i0, j0] * (1.0 - fx) + q[i0 + 1, j0] * fx
    b = q[i0, j0 + 1] * (1.0 - fx) + q[i0 + 1, j0 + 1] * fx
    q_out[i, j] = a * (1.0 - fy) + b * fy
