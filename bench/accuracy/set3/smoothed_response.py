# correct: bump-arena temporaries reused after reset, but the kernel that read the reused buffer is a fixed linear stencil
import numpy as np
import warp as wp

from _arena import Arena

N = 64


@wp.kernel
def response(x: wp.array(dtype=float), w: wp.array(dtype=float), b: wp.array(dtype=float), h: wp.array(dtype=float)):
    i = wp.tid()
    h[i] = wp.tanh(w[0] * x[i] + b[0])


@wp.kernel
def smooth3(h: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    n = h.shape[0]
    s[i] = 0.25 * h[wp.max(i - 1, 0)] + 0.5 * h[i] + 0.25 * h[wp.min(i + 1, n - 1)]


@wp.kernel
def square_out(s: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    z[i] = s[i] * s[i]


@wp.kernel
def mse(z: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = z[i] - y[i]
    wp.atomic_add(loss, 0, d * d / float(z.shape[0]))


rng = np.random.default_rng(11)
x_np = np.sort(rng.uniform(-2.0, 2.0, N)).astype(np.float32)
y_np = (np.tanh(1.3 * x_np + 0.3) ** 2).astype(np.float32)

x = wp.array(x_np, dtype=float)
y = wp.array(y_np, dtype=float)
w = wp.array([0.9], dtype=float, requires_grad=True)
b = wp.array([0.1], dtype=float, requires_grad=True)
smoothed = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

arena = Arena(capacity=4 * N)

tape = wp.Tape()
with tape:
    h = arena.take(N)
    wp.launch(response, dim=N, inputs=[x, w, b], outputs=[h])
    wp.launch(smooth3, dim=N, inputs=[h], outputs=[smoothed])
    arena.reset()  # temporaries of the first stage are dead from here on
    z = arena.take(N)
    wp.launch(square_out, dim=N, inputs=[smoothed], outputs=[z])
    wp.launch(mse, dim=N, inputs=[z, y], outputs=[loss])

tape.backward(loss)
loss_value = float(loss.numpy()[0])
w_grad = float(w.grad.numpy()[0])
b_grad = float(b.grad.numpy()[0])
print(f"loss {loss_value:.6f} dw {w_grad:.6f} db {b_grad:.6f}")
