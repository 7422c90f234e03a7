"""Dense layers written as Warp kernels (helper module)."""
import warp as wp


@wp.kernel
def dense(W: wp.array2d(dtype=float), x: wp.array2d(dtype=float), b: wp.array(dtype=float),
          y: wp.array2d(dtype=float)):
    n, j = wp.tid()  # sample, output unit
    acc = b[j]
    for k in range(W.shape[1]):
        acc += W[j, k] * x[n, k]
    y[n, j] = acc


@wp.kernel
def tanh_act(h: wp.array2d(dtype=float), a: wp.array2d(dtype=float)):
    n, j = wp.tid()
    a[n, j] = wp.tanh(h[n, j])


@wp.kernel
def mse(pred: wp.array2d(dtype=float), target: wp.array2d(dtype=float), scale: float,
        loss: wp.array(dtype=float)):
    n, j = wp.tid()
    r = pred[n, j] - target[n, j]
    wp.atomic_add(loss, 0, scale * r * r)
