# correct: a kernel is compiled with enable_backward=False, but it only renders the false-colour error heatmap after backward, outside the tape.
"""Global affine optical flow between two frames of a synthetic texture:
fit the 2x2 linear part and the translation by warping frame 0 onto frame 1;
a false-colour error heatmap is written for inspection."""
import numpy as np
import warp as wp

RES = 16


@wp.func
def pattern(x: float, y: float):
    return wp.sin(0.7 * x) * wp.cos(0.5 * y) + 0.5 * wp.sin(0.3 * x + 0.4 * y)


@wp.kernel
def warp_frame(A: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = float(j) - 0.5 * float(RES)
    y = float(i) - 0.5 * float(RES)
    u = A[0] * x + A[1] * y + A[4]
    v = A[2] * x + A[3] * y + A[5]
    out[i, j] = pattern(u, v)


@wp.kernel
def ssd(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = a[i, j] - b[i, j]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel(enable_backward=False)
def heatmap(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), rgb: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    e = wp.min(wp.abs(a[i, j] - b[i, j]), 1.0)
    rgb[i, j] = wp.vec3(e, 1.0 - wp.abs(2.0 * e - 1.0), 1.0 - e)


def frame(A):
    out = wp.zeros((RES, RES), dtype=float)
    wp.launch(warp_frame, dim=(RES, RES), inputs=[wp.array(A, dtype=float)], outputs=[out])
    return out.numpy().copy()


FRAME1 = frame(np.array([1.05, 0.08, -0.06, 0.97, 0.6, -0.4], dtype=np.float32))
PARAMS0 = [1.0, 0.0, 0.0, 1.0, 0.4, -0.3]
HEATMAPS = []


def evaluate(p):
    A = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    warped = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    target = wp.array(FRAME1, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(warp_frame, dim=(RES, RES), inputs=[A], outputs=[warped])
        wp.launch(ssd, dim=(RES, RES), inputs=[warped, target], outputs=[loss])
    tape.backward(loss)
    rgb = wp.zeros((RES, RES), dtype=wp.vec3)
    wp.launch(heatmap, dim=(RES, RES), inputs=[warped, target], outputs=[rgb])
    HEATMAPS.append(rgb.numpy())
    del HEATMAPS[:-1]
    return float(loss.numpy()[0]), A.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.0005 * g
    print(f"ssd {l:.3e} A {p[:4].round(3)} t {p[4:].round(3)} heatmap max {HEATMAPS[-1].max():.3f}")
