"""Polynomial surrogate y = p(tanh(s * t)) of a noisy-free response curve: the
coefficients and the input squashing scale s are trained together. The
polynomial is evaluated with Horner's rule in a @wp.func."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 50
DEG = 4
TS = np.linspace(-2.0, 2.0, N).astype(np.float32)
YS = (np.tanh(1.3 * TS) ** 3 - 0.5 * np.tanh(1.3 * TS) + 0.2).astype(np.float32)
PARAMS0 = [0.1, -0.3, 0.2, 0.8, 1.0]   # c0..c3 (highest power first), s


@wp.func
def horner(c: wp.array(dtype=float), deg: int, x: float):
    acc = float(0.0)
    for k in range(deg):  # expect: dynamic_loop
        acc = acc * x + c[k]
    return acc


@wp.kernel
def surrogate(t: wp.array(dtype=float), c: wp.array(dtype=float), s: wp.array(dtype=float), deg: int,
              y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = horner(c, deg, wp.tanh(s[0] * t[i]))


@wp.kernel
def mse(y: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - target[i]
    wp.atomic_add(loss, 0, d * d / float(y.shape[0]))


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    c = wp.array(p[:DEG], dtype=float, requires_grad=True)
    s = wp.array(p[DEG:], dtype=float, requires_grad=True)
    t = wp.array(TS, dtype=float)
    target = wp.array(YS, dtype=float)
    y = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(surrogate, dim=N, inputs=[t, c, s, DEG], outputs=[y])
        wp.launch(mse, dim=N, inputs=[y, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([c.grad.numpy(), s.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(p)
        p -= 0.3 * g
        if it % 50 == 0:
            print(f"iter {it} mse {l:.5f}")
    print("coefficients", np.round(p, 3))
