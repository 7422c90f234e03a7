"""Element-wise activation kernels shared by the small networks."""
import warp as wp


@wp.func
def gelu(x: float):
    return 0.5 * x * (1.0 + wp.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def gelu_2d(z: wp.array2d(dtype=float), h: wp.array2d(dtype=float)):
    i, k = wp.tid()
    h[i, k] = gelu(z[i, k])


@wp.kernel
def relu_2d(z: wp.array2d(dtype=float), h: wp.array2d(dtype=float)):
    i, k = wp.tid()
    h[i, k] = wp.max(z[i, k], 0.0)
