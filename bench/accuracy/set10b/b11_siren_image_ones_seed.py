"""Fit a one-hidden-layer sine network (SIREN-style) to a small grey image.

The per-pixel squared error is kept as an image so that error maps can be
saved; the objective is the mean squared error over the image.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 12
N_PIX = RES * RES
HID = 6
OMEGA = 3.0


@wp.kernel
def siren_err(
    W1: wp.array(dtype=wp.vec2),
    b1: wp.array(dtype=float),
    w2: wp.array(dtype=float),
    b2: wp.array(dtype=float),
    target: wp.array(dtype=float),
    err: wp.array(dtype=float),
):
    p = wp.tid()
    u = wp.vec2(float(p % RES), float(p / RES)) * (2.0 / float(RES - 1)) - wp.vec2(1.0, 1.0)
    out = b2[0]
    for j in range(HID):
        out += w2[j] * wp.sin(OMEGA * (wp.dot(W1[j], u) + b1[j]))
    r = out - target[p]
    err[p] = r * r


def target_image():
    ys, xs = np.mgrid[0:RES, 0:RES] / (RES - 1) * 2 - 1
    img = np.exp(-3 * ((xs - 0.2) ** 2 + (ys + 0.1) ** 2)) + 0.3 * np.sin(2 * xs) * ys
    return wp.array(img.ravel().astype(np.float32), dtype=float)


class Siren:
    def __init__(self, flat):
        flat = np.asarray(flat, dtype=np.float32)
        self.W1 = wp.array(flat[: 2 * HID].reshape(HID, 2), dtype=wp.vec2, requires_grad=True)
        self.b1 = wp.array(flat[2 * HID: 3 * HID], dtype=float, requires_grad=True)
        self.w2 = wp.array(flat[3 * HID: 4 * HID], dtype=float, requires_grad=True)
        self.b2 = wp.array(flat[4 * HID:], dtype=float, requires_grad=True)
        self.err = wp.zeros(N_PIX, dtype=float, requires_grad=True)

    def params(self):
        return [self.W1, self.b1, self.w2, self.b2]

    def fit_step(self, target):
        tape = wp.Tape()
        with tape:
            wp.launch(siren_err, dim=N_PIX, inputs=[*self.params(), target], outputs=[self.err])
        tape.backward(grads={self.err: wp.ones(N_PIX, dtype=float)})  # expect: seeding
        mse = float(self.err.numpy().mean())
        g = np.concatenate([a.grad.numpy().ravel() for a in self.params()]).astype(np.float64)
        tape.zero()
        return mse, g


TARGET = target_image()
PARAMS0 = np.concatenate([np.random.default_rng(4).uniform(-1, 1, 2 * HID), np.random.default_rng(5).uniform(-0.5, 0.5, HID),
                          np.random.default_rng(6).normal(0, 0.3, HID), [0.2]])


def evaluate(p):
    return Siren(p).fit_step(TARGET)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(80):
        mse, g = Siren(p).fit_step(TARGET)
        p -= 0.05 * g
        if it % 20 == 0:
            print(f"iter {it:2d} mse {mse:.5f}")
    final = Siren(p)
    mse, _ = final.fit_step(TARGET)
    print("final mse", mse, "worst pixel error", final.err.numpy().max())
