import warp as wp


@wp.func
def pseudo_huber(r: wp.float32, delta: wp.float32):
    return delta * delta * (wp.sqrt(1.0 + (r / delta) * (r / delta)) - 1.0)


@wp.func_grad(pseudo_huber)
def adj_pseudo_huber(r: wp.float32, delta: wp.float32, adj_ret: wp.float32):
    s = wp.sqrt(1.0 + (r / delta) * (r / delta))
    wp.adjoint[r] += adj_ret * r / s
    wp.adjoint[delta] += adj_ret * (2.0 * delta * (s - 1.0) - r * r / (delta * s))
