"""Regression with a one-hidden-layer network whose activation is a learnable polynomial.
Gradient of the training loss w.r.t. the polynomial coefficients and the input weights."""

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


@wp.func
def poly(c: wp.array(dtype=float), n: int, t: float):
    # Horner: c[0] + c[1] t + ... + c[n-1] t^(n-1)
    acc = float(0.0)
    for k in range(n):  # expect: dynamic_loop
        acc = acc * t + c[n - 1 - k]
    return acc


@wp.kernel
def hidden_layer(
    x: wp.array(dtype=float),
    w_in: wp.array(dtype=float),
    w_out: wp.array(dtype=float),
    coeffs: wp.array(dtype=float),
    n_coeffs: int,
    pred: wp.array(dtype=float),
):
    b, h = wp.tid()
    wp.atomic_add(pred, b, w_out[h] * poly(coeffs, n_coeffs, w_in[h] * x[b]))


@wp.kernel
def mse(pred: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    d = pred[b] - y[b]
    wp.atomic_add(loss, 0, d * d / float(pred.shape[0]))


def evaluate(p):
    coeffs = wp.array(p[:DEGREE].astype(np.float32), dtype=float, requires_grad=True)
    w_in = wp.array(p[DEGREE:].astype(np.float32), dtype=float, requires_grad=True)
    x = wp.array(XS, dtype=float)
    y = wp.array(YS, dtype=float)
    w_out = wp.array(W_OUT, dtype=float, requires_grad=True)
    pred = wp.zeros(B, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(hidden_layer, dim=(B, HID), inputs=[x, w_in, w_out, coeffs, DEGREE], outputs=[pred])
        wp.launch(mse, dim=B, inputs=[pred, y], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([coeffs.grad.numpy(), w_in.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mse {loss:.5f}  d/dcoeffs {np.round(grad[:DEGREE], 5)}  d/dw_in {np.round(grad[DEGREE:], 5)}")
