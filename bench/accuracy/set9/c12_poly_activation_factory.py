# correct: polynomial activation built by a kernel factory; the Horner loop bound is a captured Python int, so Warp unrolls it
"""Regression with a one-hidden-layer network whose activation is a learnable polynomial.
Gradient of the training loss w.r.t. the polynomial coefficients and the input weights."""

import functools

import numpy as np
import warp as wp

B, HID = 16, 4
DEGREE = 5
rng = np.random.default_rng(7)
XS = np.linspace(-1.0, 1.0, B).astype(np.float32)
YS = np.sin(2.5 * XS).astype(np.float32)
W_IN = rng.normal(size=HID).astype(np.float32)
W_OUT = (0.5 * rng.normal(size=HID)).astype(np.float32)
PARAMS0 = np.concatenate([[0.0, 1.0, 0.0, -0.3, 0.05], W_IN])


@functools.lru_cache(maxsize=None)
def make_poly_layer(degree: int):
    @wp.kernel
    def poly_layer(
        x: wp.array(dtype=float),
        w_in: wp.array(dtype=float),
        w_out: wp.array(dtype=float),
        coeffs: wp.array(dtype=float),
        pred: wp.array(dtype=float),
    ):
        b, h = wp.tid()
        t = w_in[h] * x[b]
        acc = float(0.0)
        for k in range(degree):
            acc = acc * t + coeffs[degree - 1 - k]
        wp.atomic_add(pred, b, w_out[h] * acc)

    return poly_layer


@wp.kernel
def mse(pred: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    d = pred[b] - y[b]
    wp.atomic_add(loss, 0, d * d / float(pred.shape[0]))


def evaluate(p):
    layer = make_poly_layer(DEGREE)
    coeffs = wp.array(p[:DEGREE].astype(np.float32), dtype=float, requires_grad=True)
    w_in = wp.array(p[DEGREE:].astype(np.float32), dtype=float, requires_grad=True)
    x = wp.array(XS, dtype=float)
    y = wp.array(YS, dtype=float)
    w_out = wp.array(W_OUT, dtype=float, requires_grad=True)
    pred = wp.zeros(B, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(layer, dim=(B, HID), inputs=[x, w_in, w_out, coeffs], outputs=[pred])
        wp.launch(mse, dim=B, inputs=[pred, y], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([coeffs.grad.numpy(), w_in.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mse {loss:.5f}  d/dcoeffs {np.round(grad[:DEGREE], 5)}  d/dw_in {np.round(grad[DEGREE:], 5)}")
