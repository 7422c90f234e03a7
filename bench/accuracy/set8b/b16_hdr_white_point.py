"""Calibrate an HDR tone-mapping pipeline: white-point normalisation followed by Reinhard.

Two scalars are learned: the white point and the key (exposure) of the operator.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

H, W = 10, 14


@wp.kernel
def normalise_white(rad: wp.array2d(dtype=float), white: wp.array(dtype=float)):
    i, j = wp.tid()
    rad[i, j] /= white[0]  # expect: inplace_op


@wp.kernel
def reinhard(rad: wp.array2d(dtype=float), key: wp.array(dtype=float), ldr: wp.array2d(dtype=float)):
    i, j = wp.tid()
    l = key[0] * rad[i, j]
    ldr[i, j] = l / (1.0 + l)


@wp.kernel
def photo_loss(ldr: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), inv_n: float,
               loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = ldr[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, r * r * inv_n)


def hdr_capture():
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    return (0.2 + 4.0 * np.exp(-((x - 9) ** 2 + (y - 4) ** 2) / 8.0) + 0.5 * x / W).astype(np.float32)


def reference():
    r = hdr_capture() / 2.5
    l = 0.8 * r
    return (l / (1 + l)).astype(np.float32)


class ToneMapper:
    def __init__(self, p):
        self.white = wp.array([p[0]], dtype=float, requires_grad=True)
        self.key = wp.array([p[1]], dtype=float, requires_grad=True)

    def run(self, capture, ref):
        rad = wp.array(capture, dtype=float, requires_grad=True)
        ldr = wp.zeros((H, W), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(normalise_white, dim=(H, W), inputs=[rad, self.white])
            wp.launch(reinhard, dim=(H, W), inputs=[rad, self.key], outputs=[ldr])
            wp.launch(photo_loss, dim=(H, W), inputs=[ldr, ref, 1.0 / (H * W)], outputs=[loss])
        tape.backward(loss)
        g = np.array([self.white.grad.numpy()[0], self.key.grad.numpy()[0]], dtype=np.float64)
        return float(loss.numpy()[0]), g


PARAMS0 = np.array([1.8, 1.2])


def evaluate(p):
    return ToneMapper(np.asarray(p, dtype=np.float32)).run(hdr_capture(), wp.array(reference(), dtype=float))


if __name__ == "__main__":
    cap, ref = hdr_capture(), wp.array(reference(), dtype=float)
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = ToneMapper(p.astype(np.float32)).run(cap, ref)
        p -= 2.0 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f} white {p[0]:.3f} key {p[1]:.3f}")
    print("white point", p[0], "key", p[1])
