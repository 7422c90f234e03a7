"""Neural surrogate of the steady temperature of a plate, T(x, y), as a
2 -> 6 -> 1 GELU network trained on samples of the analytic solution."""
import numpy as np
import warp as wp

from _activations import gelu_2d

wp.config.quiet = True

N = 64
HID = 6
rng = np.random.default_rng(8)
XY = rng.uniform(0.0, 1.0, size=(N, 2)).astype(np.float32)
T_REF = (np.sinh(np.pi * XY[:, 1]) / np.sinh(np.pi) * np.sin(np.pi * XY[:, 0])).astype(np.float32)
W1 = rng.normal(0.0, 1.5, size=(HID, 2)).astype(np.float32)
PARAMS0 = list(np.round(rng.normal(0.0, 0.5, size=2 * HID), 3))   # hidden biases (6), output weights (6)


@wp.kernel
def dense_in(xy: wp.array(dtype=wp.vec2), w1: wp.array2d(dtype=float), b1: wp.array(dtype=float),
             z: wp.array2d(dtype=float)):
    i, k = wp.tid()
    z[i, k] = w1[k, 0] * xy[i][0] + w1[k, 1] * xy[i][1] + b1[k]


@wp.kernel
def dense_out(h: wp.array2d(dtype=float), w2: wp.array(dtype=float), y: wp.array(dtype=float)):
    i, k = wp.tid()
    wp.atomic_add(y, i, w2[k] * h[i, k])


@wp.kernel
def mse(y: wp.array(dtype=float), t: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - t[i]
    wp.atomic_add(loss, 0, d * d / float(y.shape[0]))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    b1 = wp.array(p[:HID], dtype=float, requires_grad=True)
    w2 = wp.array(p[HID:], dtype=float, requires_grad=True)
    w1 = wp.array(W1, dtype=float)
    xy = wp.array(XY, dtype=wp.vec2)
    t = wp.array(T_REF, dtype=float)
    z = wp.zeros((N, HID), dtype=float, requires_grad=True)
    h = wp.zeros((N, HID), dtype=float, requires_grad=True)
    y = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dense_in, dim=(N, HID), inputs=[xy, w1, b1], outputs=[z])
        wp.launch(gelu_2d, dim=(N, HID), inputs=[z], outputs=[h])
        wp.launch(dense_out, dim=(N, HID), inputs=[h, w2], outputs=[y])
        wp.launch(mse, dim=N, inputs=[y, t], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([b1.grad.numpy(), w2.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(150):
        l, g = evaluate(p)
        p -= 0.2 * g
        if it % 50 == 0:
            print(f"iter {it} surrogate mse {l:.5f}")
