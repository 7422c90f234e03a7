"""Two-layer SiLU MLP regressing a 2-D function; gradient of the MSE w.r.t. both weight matrices."""

import numpy as np
import warp as wp

from _layers import Dense

B, D, H = 12, 2, 4
rng = np.random.default_rng(5)
XS = rng.uniform(-1.0, 1.0, size=(B, D)).astype(np.float32)
YS = (np.sin(2.0 * XS[:, :1]) * np.cos(XS[:, 1:])).astype(np.float32)


@wp.kernel
def mse(pred: wp.array2d(dtype=float), y: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, o = wp.tid()
    d = pred[n, o] - y[n, o]
    wp.atomic_add(loss, 0, d * d / float(pred.shape[0]))


layer1 = Dense(D, H, "silu", rng)
layer2 = Dense(H, 1, "linear", rng)
PARAMS0 = np.concatenate([layer1.W.numpy().ravel(), layer2.W.numpy().ravel()]).astype(np.float64)


def evaluate(p):
    layer1.W.assign(p[: H * D].reshape(H, D).astype(np.float32))
    layer2.W.assign(p[H * D :].reshape(1, H).astype(np.float32))
    x = wp.array(XS, dtype=float)
    y = wp.array(YS, dtype=float)
    hidden = wp.zeros((B, H), dtype=float)  # expect: requires_grad
    pred = wp.zeros((B, 1), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        layer1(x, hidden)
        layer2(hidden, pred)
        wp.launch(mse, dim=(B, 1), inputs=[pred, y], outputs=[loss])
    tape.backward(loss)
    grad = np.concatenate([layer1.W.grad.numpy().ravel(), layer2.W.grad.numpy().ravel()]).astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), grad


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"mse {loss:.5f}  |dL/dW1| {np.linalg.norm(grad[:H * D]):.5f}  |dL/dW2| {np.linalg.norm(grad[H * D:]):.5f}")
