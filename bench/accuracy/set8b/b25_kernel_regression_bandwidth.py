"""Nadaraya-Watson kernel regression: learn the log-bandwidth by minimising validation error.

Gaussian weights between validation and training inputs are normalised per
row; the prediction is the weighted mean of the training targets.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_TRAIN = 10
N_VAL = 6


@wp.kernel
def gaussian_weights(xv: wp.array(dtype=float), xt: wp.array(dtype=float), log_h: wp.array(dtype=float),
                     w: wp.array2d(dtype=float)):
    i, j = wp.tid()
    h = wp.exp(log_h[0])
    d = (xv[i] - xt[j]) / h
    w[i, j] = wp.exp(-0.5 * d * d)


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def normalise_rows(w: wp.array2d(dtype=float), wn: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = float(0.0)
    for k in range(N_TRAIN):
        s += w[i, k]
    wn[i, j] = w[i, j] / s


@wp.kernel
def predict_and_score(wn: wp.array2d(dtype=float), yt: wp.array(dtype=float), yv: wp.array(dtype=float),
                      inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = float(0.0)
    for k in range(N_TRAIN):
        pred += wn[i, k] * yt[k]
    r = pred - yv[i]
    wp.atomic_add(loss, 0, r * r * inv_n)


def split():
    rng = np.random.default_rng(91)
    x = rng.uniform(-2, 2, N_TRAIN + N_VAL)
    y = np.sin(1.5 * x) + 0.1 * rng.normal(size=x.size)
    f = lambda a: wp.array(a.astype(np.float32), dtype=float)  # noqa: E731
    return f(x[:N_TRAIN]), f(y[:N_TRAIN]), f(x[N_TRAIN:]), f(y[N_TRAIN:])


def validation_loss(p, data):
    xt, yt, xv, yv = data
    log_h = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    w = wp.zeros((N_VAL, N_TRAIN), dtype=float, requires_grad=True)
    wn = wp.zeros((N_VAL, N_TRAIN), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gaussian_weights, dim=(N_VAL, N_TRAIN), inputs=[xv, xt, log_h], outputs=[w])
        wp.launch(normalise_rows, dim=(N_VAL, N_TRAIN), inputs=[w], outputs=[wn])
        wp.launch(predict_and_score, dim=N_VAL, inputs=[wn, yt, yv, 1.0 / N_VAL], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), log_h.grad.numpy().astype(np.float64)


PARAMS0 = np.array([np.log(0.8)])


def evaluate(p):
    return validation_loss(p, split())


if __name__ == "__main__":
    data = split()
    p = PARAMS0.copy()
    for it in range(25):
        loss, g = validation_loss(p, data)
        p -= 0.5 * g
        if it % 5 == 0:
            print(f"iter {it:2d} val mse {loss:.5f} bandwidth {np.exp(p[0]):.4f}")
    print("bandwidth", float(np.exp(p[0])))
