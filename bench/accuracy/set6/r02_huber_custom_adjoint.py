"""Huber regression of a quadratic trend; the Huber loss has a hand-written adjoint."""
import numpy as np
import warp as wp

N = 200
DELTA = 1.0


@wp.func
def huber(r: float, delta: float):
    a = wp.abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


@wp.func_grad(huber)
def adj_huber(r: float, delta: float, adj_ret: float):
    if wp.abs(r) <= delta:
        wp.adjoint[r] += adj_ret * r
    else:
        wp.adjoint[r] += delta * wp.sign(r)  # expect: custom_adjoint


@wp.kernel
def fit_loss(x: wp.array(dtype=float), y: wp.array(dtype=float), coef: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = coef[0] + coef[1] * x[i] + coef[2] * x[i] * x[i]
    wp.atomic_add(loss, 0, huber(pred - y[i], DELTA) / float(N))


def main():
    rng = np.random.default_rng(11)
    x = np.linspace(-1.0, 1.0, N).astype(np.float32)
    y = (0.5 - 1.0 * x + 2.0 * x * x + 0.1 * rng.standard_normal(N)).astype(np.float32)
    y[rng.choice(N, 6, replace=False)] += 8.0  # a few gross outliers
    coef = wp.array([0.4, -0.8, 1.8], dtype=float, requires_grad=True)
    xs, ys = wp.array(x), wp.array(y)
    for it in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(fit_loss, dim=N, inputs=[xs, ys, coef], outputs=[loss])
        tape.backward(loss)
        g = coef.grad.numpy().copy()
        print(f"it {it}: loss {loss.numpy()[0]:.5f} grad {g}")
        coef.assign(coef.numpy() - 0.5 * g)
        tape.zero()


if __name__ == "__main__":
    main()
