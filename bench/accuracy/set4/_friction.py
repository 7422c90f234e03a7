import warp as wp


@wp.func
def soft_relu(x: wp.float32, k: wp.float32):
    return wp.log(1.0 + wp.exp(k * x)) / k


@wp.func_grad(soft_relu)
def adj_soft_relu(x: wp.float32, k: wp.float32, adj_ret: wp.float32):
    e = wp.exp(k * x)
    wp.adjoint[x] += adj_ret * e / (1.0 + e)
    wp.adjoint[k] += adj_ret * (x * e / (1.0 + e) - wp.log(1.0 + e) / k)  # expect: custom_adjoint
