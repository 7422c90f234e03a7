# correct: the soft coverage map keeps its gradient (retain_grad=True) and two taped kernels read it, but exactly one launch writes it.
"""Soft rasterisation of a convex quad (sigmoid edge functions) fitted to a target
silhouette; the per-pixel gradient of the coverage map is kept for display and a
soft IoU is tracked on the same tape."""
import numpy as np
import warp as wp

RES = 16
SOFT = 0.7


@wp.func
def inside(a: wp.vec2, b: wp.vec2, p: wp.vec2):
    e = b - a
    d = (e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0])) / wp.length(e)
    return 1.0 / (1.0 + wp.exp(-d / SOFT))


@wp.kernel
def soft_quad(quad: wp.array(dtype=wp.vec2), coverage: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2(float(j) + 0.5, float(i) + 0.5)
    c = inside(quad[0], quad[1], p) * inside(quad[1], quad[2], p)
    coverage[i, j] = c * inside(quad[2], quad[3], p) * inside(quad[3], quad[0], p)


@wp.kernel
def silhouette_loss(coverage: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = coverage[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def iou_terms(coverage: wp.array2d(dtype=float), target: wp.array2d(dtype=float), terms: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(terms, 0, coverage[i, j] * target[i, j])
    wp.atomic_add(terms, 1, coverage[i, j] + target[i, j] - coverage[i, j] * target[i, j])


def target_image():
    cov = wp.zeros((RES, RES), dtype=float)
    quad = wp.array([[3.0, 3.0], [13.0, 4.0], [12.0, 12.5], [4.0, 11.0]], dtype=wp.vec2)
    wp.launch(soft_quad, dim=(RES, RES), inputs=[quad], outputs=[cov])
    return cov.numpy().copy()


TARGET = target_image()
PARAMS0 = [3.5, 2.5, 12.5, 4.5, 12.0, 12.0, 4.5, 11.5]


def evaluate(p):
    quad = wp.array(np.asarray(p, dtype=np.float32).reshape(4, 2), dtype=wp.vec2, requires_grad=True)
    coverage = wp.zeros((RES, RES), dtype=float, requires_grad=True, retain_grad=True)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    terms = wp.zeros(2, dtype=float)
    tape = wp.Tape()
    with tape:
        wp.launch(soft_quad, dim=(RES, RES), inputs=[quad], outputs=[coverage])
        wp.launch(iou_terms, dim=(RES, RES), inputs=[coverage, target], outputs=[terms])
        wp.launch(silhouette_loss, dim=(RES, RES), inputs=[coverage, target], outputs=[loss])
    tape.backward(loss)
    t = terms.numpy()
    evaluate.last_iou = t[0] / t[1]
    evaluate.last_pixel_grad = coverage.grad.numpy().copy()
    return float(loss.numpy()[0]), quad.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.1 * g
    print(f"loss {l:.4f} soft IoU {evaluate.last_iou:.3f} max |dL/dcoverage| {np.abs(evaluate.last_pixel_grad).max():.3f}")
    print("quad", p.reshape(4, 2).round(2))
