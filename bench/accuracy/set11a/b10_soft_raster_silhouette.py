"""SoftRas-style silhouette fitting: a triangle is rasterised with sigmoid edge
functions into a soft coverage map whose per-pixel gradient is kept for display;
its vertices are fitted to a target silhouette."""
import numpy as np
import warp as wp

RES = 16
SOFT = 0.6


@wp.func
def edge_fn(a: wp.vec2, b: wp.vec2, p: wp.vec2):
    e = b - a
    return (e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0])) / wp.length(e)


@wp.kernel
def soft_raster(tri: wp.array(dtype=wp.vec2), coverage: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2(float(j) + 0.5, float(i) + 0.5)
    a = tri[0]
    b = tri[1]
    c = tri[2]
    s0 = 1.0 / (1.0 + wp.exp(-edge_fn(a, b, p) / SOFT))
    s1 = 1.0 / (1.0 + wp.exp(-edge_fn(b, c, p) / SOFT))
    s2 = 1.0 / (1.0 + wp.exp(-edge_fn(c, a, p) / SOFT))
    coverage[i, j] = s0 * s1 * s2


@wp.kernel
def silhouette_loss(coverage: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = coverage[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def soft_iou_terms(coverage: wp.array2d(dtype=float), target: wp.array2d(dtype=float), terms: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(terms, 0, coverage[i, j] * target[i, j])
    wp.atomic_add(terms, 1, coverage[i, j] + target[i, j] - coverage[i, j] * target[i, j])


class SoftRasterizer:
    def __init__(self):
        self.coverage = wp.zeros((RES, RES), dtype=float, requires_grad=True, retain_grad=True)

    def render(self, tri):
        wp.launch(soft_raster, dim=(RES, RES), inputs=[tri], outputs=[self.coverage])
        return self.coverage

    def soft_iou(self, tri, target):
        terms = wp.zeros(2, dtype=float)
        wp.launch(soft_raster, dim=(RES, RES), inputs=[tri], outputs=[self.coverage])  # expect: retain_grad
        wp.launch(soft_iou_terms, dim=(RES, RES), inputs=[self.coverage, target], outputs=[terms])
        t = terms.numpy()
        return t[0] / t[1]


def target_image():
    r = SoftRasterizer()
    return r.render(wp.array([[3.0, 3.0], [13.0, 5.0], [6.0, 13.0]], dtype=wp.vec2)).numpy().copy()


TARGET = target_image()
PARAMS0 = [3.5, 2.5, 12.0, 5.5, 6.5, 12.0]


def evaluate(p):
    tri = wp.array(np.asarray(p, dtype=np.float32).reshape(3, 2), dtype=wp.vec2, requires_grad=True)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    ras = SoftRasterizer()
    tape = wp.Tape()
    with tape:
        cov = ras.render(tri)
        iou = ras.soft_iou(tri, target)
        wp.launch(silhouette_loss, dim=(RES, RES), inputs=[cov, target], outputs=[loss])
    tape.backward(loss)
    evaluate.last_iou = iou
    evaluate.last_pixel_grad = ras.coverage.grad.numpy().copy()
    return float(loss.numpy()[0]), tri.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"loss {l:.4f} soft IoU {evaluate.last_iou:.3f}")
    print("vertices", p.reshape(3, 2).round(2))
