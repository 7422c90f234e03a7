"""Vector-graphics fitting: an ellipse is rendered with analytic anti-aliasing (a
smoothstep of its approximate signed distance over one pixel footprint) and
its centre, radii and orientation are fitted to a target raster."""
import numpy as np
import warp as wp

RES = 16


@wp.func
def coverage_ramp(x: float):
    t = wp.clamp(x, 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


@wp.func_grad(coverage_ramp)
def adj_coverage_ramp(x: float, adj_ret: float):
    wp.adjoint[x] += 6.0 * x * (1.0 - x) * adj_ret  # expect: custom_adjoint


@wp.func
def ellipse_sdf(p: wp.vec2, shape: wp.array(dtype=float)):
    c = wp.cos(shape[4])
    s = wp.sin(shape[4])
    q = p - wp.vec2(shape[0], shape[1])
    u = wp.vec2(c * q[0] + s * q[1], -s * q[0] + c * q[1])
    k = wp.sqrt((u[0] / shape[2]) * (u[0] / shape[2]) + (u[1] / shape[3]) * (u[1] / shape[3]))
    return (k - 1.0) * wp.min(shape[2], shape[3])


@wp.kernel
def rasterize(shape: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2(float(j) + 0.5, float(i) + 0.5)
    img[i, j] = coverage_ramp(0.5 - ellipse_sdf(p, shape))


@wp.kernel
def raster_loss(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


def raster(shape):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(rasterize, dim=(RES, RES), inputs=[wp.array(shape, dtype=float)], outputs=[img])
    return img.numpy().copy()


TARGET = raster(np.array([8.3, 7.6, 5.5, 3.2, 0.5], dtype=np.float32))
PARAMS0 = [8.0, 8.0, 5.0, 3.5, 0.3]


def evaluate(p):
    shape = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rasterize, dim=(RES, RES), inputs=[shape], outputs=[img])
        wp.launch(raster_loss, dim=(RES, RES), inputs=[img, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), shape.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.02 * g
    print(f"raster loss {l:.4f} ellipse {p.round(3)}")
