# correct: custom @wp.func_grad adjoint with the right math, accumulated with +=
import numpy as np
import warp as wp

from _robust import pseudo_huber

N = 12


@wp.kernel
def residuals(line: wp.array(dtype=wp.float32), xs: wp.array(dtype=wp.float32), ys: wp.array(dtype=wp.float32), delta: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    r = line[0] * xs[i] + line[1] - ys[i]
    wp.atomic_add(loss, 0, pseudo_huber(r, delta[0]))


def data():
    x = np.linspace(-1.0, 1.0, N).astype(np.float32)
    y = (0.7 * x - 0.2).astype(np.float32)
    y[3] += 2.0
    y[9] -= 1.5
    return x, y


def loss_grad(p_np, x_np, y_np):
    line = wp.array(p_np[:2], dtype=wp.float32, requires_grad=True)
    delta = wp.array(p_np[2:], dtype=wp.float32, requires_grad=True)
    xs = wp.array(x_np, dtype=wp.float32)
    ys = wp.array(y_np, dtype=wp.float32)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(residuals, dim=N, inputs=[line, xs, ys, delta], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([line.grad.numpy(), delta.grad.numpy()])


def main():
    x, y = data()
    p = np.array([0.0, 0.0, 0.5], dtype=np.float32)
    for it in range(8):
        l, g = loss_grad(p, x, y)
        print(f"iter {it}: slope={p[0]:.4f} offset={p[1]:.4f} loss={l:.5f}")
        p[:2] -= 0.1 * g[:2]


if __name__ == "__main__":
    main()
