# correct: one scratch buffer is rewritten on the tape after the column blur read it, but that blur is linear, so its adjoint never needs the overwritten values.
"""Image alignment on the second level of a Gaussian pyramid: the warped image is
blurred twice with a separable binomial filter that reuses one scratch buffer."""
import numpy as np
import warp as wp

RES = 20
TAPS = 5
BINOMIAL = wp.constant(wp.types.vector(length=5, dtype=float)(0.0625, 0.25, 0.375, 0.25, 0.0625))


@wp.kernel
def blur_rows(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for k in range(TAPS):
        acc += BINOMIAL[k] * src[i, wp.clamp(j + k - 2, 0, RES - 1)]
    dst[i, j] = acc


@wp.kernel
def blur_cols(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for k in range(TAPS):
        acc += BINOMIAL[k] * src[wp.clamp(i + k - 2, 0, RES - 1), j]
    dst[i, j] = acc


@wp.kernel
def shift_scale(src: wp.array2d(dtype=float), motion: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = motion[2]
    u = s * (float(j) - 0.5 * float(RES)) + 0.5 * float(RES) + motion[0]
    v = s * (float(i) - 0.5 * float(RES)) + 0.5 * float(RES) + motion[1]
    u0 = wp.floor(u)
    v0 = wp.floor(v)
    fu = u - u0
    fv = v - v0
    a = int(v0)
    b = int(u0)
    p00 = src[wp.clamp(a, 0, RES - 1), wp.clamp(b, 0, RES - 1)]
    p01 = src[wp.clamp(a, 0, RES - 1), wp.clamp(b + 1, 0, RES - 1)]
    p10 = src[wp.clamp(a + 1, 0, RES - 1), wp.clamp(b, 0, RES - 1)]
    p11 = src[wp.clamp(a + 1, 0, RES - 1), wp.clamp(b + 1, 0, RES - 1)]
    out[i, j] = (1.0 - fv) * ((1.0 - fu) * p00 + fu * p01) + fv * ((1.0 - fu) * p10 + fu * p11)


@wp.kernel
def ssd(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = a[i, j] - b[i, j]
    wp.atomic_add(loss, 0, d * d)


class Pyramid:
    def __init__(self, requires_grad=False):
        self.tmp = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
        self.levels = [wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad) for _ in range(2)]

    def build(self, img):
        src = img
        for lvl in self.levels:
            wp.launch(blur_rows, dim=(RES, RES), inputs=[src], outputs=[self.tmp])
            wp.launch(blur_cols, dim=(RES, RES), inputs=[self.tmp], outputs=[lvl])
            src = lvl
        return self.levels[-1]


def source():
    yy, xx = np.mgrid[0:RES, 0:RES].astype(np.float64)
    img = np.exp(-((xx - 8.0) ** 2 + (yy - 9.0) ** 2) / 8.0) + 0.7 * np.exp(-((xx - 13.0) ** 2 + (yy - 12.0) ** 2) / 4.0)
    return img.astype(np.float32)


SRC = source()


def target():
    moved = wp.zeros((RES, RES), dtype=float)
    wp.launch(shift_scale, dim=(RES, RES), inputs=[wp.array(SRC, dtype=float), wp.array([1.2, -0.7, 1.1], dtype=float)],
              outputs=[moved])
    return Pyramid().build(moved).numpy().copy()


TARGET = target()
PARAMS0 = [0.8, -0.4, 1.0]


def evaluate(p):
    motion = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    moved = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    pyr = Pyramid(requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shift_scale, dim=(RES, RES), inputs=[wp.array(SRC, dtype=float), motion], outputs=[moved])
        top = pyr.build(moved)
        wp.launch(ssd, dim=(RES, RES), inputs=[top, wp.array(TARGET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), motion.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"ssd {l:.3e} shift ({p[0]:.3f}, {p[1]:.3f}) scale {p[2]:.4f}")
