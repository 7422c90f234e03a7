"""Fit the input scale of a gated feature transform; temporaries live in a bump arena."""
import numpy as np
import warp as wp

from _arena import Arena

N = 64


@wp.kernel
def squash(x: wp.array(dtype=float), w: wp.array(dtype=float), b: wp.array(dtype=float), h: wp.array(dtype=float)):
    i = wp.tid()
    h[i] = wp.tanh(w[0] * x[i] + b[0])


@wp.kernel
def gate(h: wp.array(dtype=float), g: wp.array(dtype=float)):
    i = wp.tid()
    g[i] = wp.exp(-h[i] * h[i])


@wp.kernel
def readout(g: wp.array(dtype=float), x: wp.array(dtype=float), gamma: float, z: wp.array(dtype=float)):
    i = wp.tid()
    z[i] = gamma * g[i] + 0.1 * x[i]


@wp.kernel
def mse(z: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = z[i] - y[i]
    wp.atomic_add(loss, 0, d * d / float(z.shape[0]))


rng = np.random.default_rng(7)
x_np = rng.uniform(-2.0, 2.0, N).astype(np.float32)
y_np = (np.exp(-np.tanh(1.7 * x_np - 0.2) ** 2) + 0.1 * x_np).astype(np.float32)

x = wp.array(x_np, dtype=float)
y = wp.array(y_np, dtype=float)
w = wp.array([1.0], dtype=float, requires_grad=True)
b = wp.array([0.0], dtype=float, requires_grad=True)
gated = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

arena = Arena(capacity=4 * N)

tape = wp.Tape()
with tape:
    h = arena.take(N)
    wp.launch(squash, dim=N, inputs=[x, w, b], outputs=[h])
    wp.launch(gate, dim=N, inputs=[h], outputs=[gated])
    arena.reset()  # layer-1 temporaries are dead from here on
    z = arena.take(N)
    wp.launch(readout, dim=N, inputs=[gated, x, 1.0], outputs=[z])  # expect: overwrite
    wp.launch(mse, dim=N, inputs=[z, y], outputs=[loss])

tape.backward(loss)
loss_value = float(loss.numpy()[0])
w_grad = float(w.grad.numpy()[0])
b_grad = float(b.grad.numpy()[0])
print(f"loss {loss_value:.6f} dw {w_grad:.6f} db {b_grad:.6f}")
