# correct: Correct look-alike of b04: gradients deliberately accumulate over micro-batches, zeroed after each update.
"""Correct look-alike of b04: gradients deliberately accumulate over micro-batches, zeroed after each update."""
import numpy as np
import warp as wp

BATCH = 32
MICRO = 4


@wp.kernel
def logistic_nll(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=float), w: wp.array(dtype=wp.vec2),
                 b: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    z = wp.dot(w[0], x[i]) + b[0]
    # log(1 + exp(-y z)) written stably
    m = -y[i] * z
    wp.atomic_add(loss, 0, wp.max(m, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(m))))


@wp.kernel
def sgd_vec(p: wp.array(dtype=wp.vec2), g: wp.array(dtype=wp.vec2), lr: float):
    p[0] = p[0] - lr * g[0]


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    p[0] = p[0] - lr * g[0]


def main():
    rng = np.random.default_rng(5)
    xs = rng.normal(size=(MICRO, BATCH, 2)).astype(np.float32)
    ys = np.where(xs[..., 0] + 0.5 * xs[..., 1] > 0.2, 1.0, -1.0).astype(np.float32)
    w = wp.array([[0.3, -0.2]], dtype=wp.vec2, requires_grad=True)
    b = wp.array([0.1], dtype=float, requires_grad=True)
    for epoch in range(3):
        total = 0.0
        for m in range(MICRO):
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            tape = wp.Tape()
            with tape:
                wp.launch(logistic_nll, dim=BATCH, inputs=[wp.array(xs[m], dtype=wp.vec2), wp.array(ys[m]), w, b],
                          outputs=[loss])
            tape.backward(loss)  # adds this micro-batch's gradient to w.grad / b.grad
            total += loss.numpy()[0]
        print(f"epoch {epoch}: loss {total:.4f} w {w.numpy()[0]} b {b.numpy()[0]:.4f}")
        wp.launch(sgd_vec, dim=1, inputs=[w, w.grad, 0.01])
        wp.launch(sgd, dim=1, inputs=[b, b.grad, 0.01])
        w.grad.zero_()
        b.grad.zero_()


if __name__ == "__main__":
    main()
