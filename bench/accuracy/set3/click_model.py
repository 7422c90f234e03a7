"""Logistic click-through model trained with a hand-written SGD kernel."""
import numpy as np
import warp as wp

N, D = 64, 4
LR = 0.5
EPOCHS = 5


@wp.kernel
def logits_kernel(X: wp.array2d(dtype=float), w: wp.array(dtype=float), b: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    s = b[0]
    for k in range(4):
        s += X[i, k] * w[k]
    z[i] = s


@wp.kernel
def bce_kernel(z: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    zi = z[i]
    # log(1 + exp(z)) - y z, in a stable form
    l = wp.max(zi, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(zi))) - y[i] * zi
    wp.atomic_add(loss, 0, l / float(z.shape[0]))


@wp.kernel
def sgd_step(p: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * grad[i]


rng = np.random.default_rng(12)
X_np = rng.normal(size=(N, D)).astype(np.float32)
true_w = np.array([1.5, -2.0, 0.5, 0.0])
y_np = (rng.uniform(size=N) < 1.0 / (1.0 + np.exp(-(X_np @ true_w - 0.3)))).astype(np.float32)

X = wp.array(X_np, dtype=float)
y = wp.array(y_np, dtype=float)
w = wp.array(rng.normal(0.0, 0.1, D).astype(np.float32), dtype=float, requires_grad=True)
b = wp.array([0.05], dtype=float, requires_grad=True)
z = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

trace = []
for epoch in range(EPOCHS):
    loss.zero_()
    tape = wp.Tape()
    with tape:
        wp.launch(logits_kernel, dim=N, inputs=[X, w, b], outputs=[z])
        wp.launch(bce_kernel, dim=N, inputs=[z, y], outputs=[loss])
    tape.backward(loss)  # expect: missing_zero
    trace.append((w.numpy().copy(), b.numpy().copy(), float(loss.numpy()[0]), w.grad.numpy().copy(), b.grad.numpy().copy()))
    print(f"epoch {epoch} loss {trace[-1][2]:.5f} |grad w| {np.linalg.norm(trace[-1][3]):.5f}")
    wp.launch(sgd_step, dim=D, inputs=[w, w.grad, LR])
    wp.launch(sgd_step, dim=1, inputs=[b, b.grad, LR])
