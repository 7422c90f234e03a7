"""Two-layer softsign network fitted to a noisy 1D curve; report the gradient norm per parameter."""
import numpy as np
import warp as wp

from _layers import Dense, softsign


@wp.kernel
def mse_loss(pred: wp.array2d(dtype=float), y: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, j = wp.tid()
    d = pred[n, j] - y[n, j]
    wp.atomic_add(loss, 0, d * d / float(pred.shape[0]))


rng = np.random.default_rng(2)
B, H = 16, 8
xs = np.linspace(-2.0, 2.0, B, dtype=np.float32).reshape(B, 1)
ys = (np.sin(1.5 * xs) + 0.05 * rng.normal(size=xs.shape)).astype(np.float32)
x = wp.array(xs, dtype=float)
y = wp.array(ys, dtype=float)

layers = {"hidden": Dense(1, H, rng), "out": Dense(H, 1, rng)}
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    h = softsign(layers["hidden"](x))
    pred = layers["out"](h)
    wp.launch(mse_loss, dim=pred.shape, inputs=[pred, y], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
print(f"loss {loss_value:.5f}")
for name, layer in layers.items():
    for pname, p in zip(("W", "b"), layer.params()):
        print(f"  |d loss/d {name}.{pname}| = {np.linalg.norm(p.grad.numpy()):.5f}")
