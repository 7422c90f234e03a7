"""Two weight-tied residual tanh blocks on a small batch, trained to map inputs onto targets."""

import numpy as np
import warp as wp

B, D = 4, 3
BLOCKS = 2
rng = np.random.default_rng(3)
X = rng.normal(size=(B, D)).astype(np.float32)
Y = rng.normal(size=(B, D)).astype(np.float32)
PARAMS0 = (0.6 * rng.normal(size=(D, D))).ravel()


@wp.kernel
def residual_block(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    b, i = wp.tid()
    z = float(0.0)
    for j in range(D):
        z += W[i, j] * x[b, j]
    out[b, i] = x[b, i] + wp.tanh(z)


@wp.kernel
def mse(pred: wp.array2d(dtype=float), target: wp.array2d(dtype=float), scale: float, loss: wp.array(dtype=float)):
    b, i = wp.tid()
    d = pred[b, i] - target[b, i]
    wp.atomic_add(loss, 0, scale * d * d)


def forward(W, x_in, y, loss):
    stream = wp.clone(x_in)
    tape = wp.Tape()
    with tape:
        for _ in range(BLOCKS):
            h = wp.empty_like(stream)
            wp.launch(residual_block, dim=(B, D), inputs=[stream, W], outputs=[h])
            wp.copy(stream, h)  # expect: overwrite
        wp.launch(mse, dim=(B, D), inputs=[stream, y, 1.0 / (B * D)], outputs=[loss])
    return tape


def evaluate(p):
    W = wp.array(p.reshape(D, D).astype(np.float32), dtype=float, requires_grad=True)
    x_in = wp.array(X, dtype=float, requires_grad=True)
    y = wp.array(Y, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = forward(W, x_in, y, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), W.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mse {loss:.5f}  |dL/dW| {np.linalg.norm(grad):.5f}")
