"""Tune the log length-scale and log signal amplitude of an RBF kernel
regressor (fixed dual weights) on held-out points in 2-D."""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 24   # training inputs
T = 40   # held-out inputs
PARAMS0 = [np.log(0.6), np.log(1.2)]

rng = np.random.default_rng(7)
X_TRAIN = rng.uniform(0.0, 2.0, size=(M, 2)).astype(np.float32)
X_TEST = rng.uniform(0.0, 2.0, size=(T, 2)).astype(np.float32)
ALPHA = rng.normal(0.0, 0.6, size=M).astype(np.float32)
Y_TEST = (np.sin(2.0 * X_TEST[:, 0]) * np.cos(1.5 * X_TEST[:, 1])).astype(np.float32)


@wp.kernel
def predict(xq: wp.array(dtype=wp.vec2), xt: wp.array(dtype=wp.vec2), alpha: wp.array(dtype=float),
            hyp: wp.array(dtype=float), pred: wp.array(dtype=float)):
    q, j = wp.tid()
    ell = wp.exp(hyp[0])
    amp = wp.exp(hyp[1])
    d = xq[q] - xt[j]
    k = amp * wp.exp(-0.5 * wp.dot(d, d) / (ell * ell))
    wp.atomic_add(pred, q, alpha[j] * k)


@wp.kernel
def mse(pred: wp.array(dtype=float), y: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    q = wp.tid()
    r = pred[q] - y[q]
    wp.atomic_add(loss, 0, inv_n * r * r)


def evaluate(p, report=False):
    hyp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    xt = wp.array(X_TRAIN, dtype=wp.vec2)
    xq = wp.array(X_TEST, dtype=wp.vec2)
    alpha = wp.array(ALPHA, dtype=float)
    y = wp.array(Y_TEST, dtype=float)
    pred = wp.zeros(T, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(predict, dim=(T, M), inputs=[xq, xt, alpha, hyp], outputs=[pred])
        wp.launch(mse, dim=T, inputs=[pred, y, 1.0 / T], outputs=[loss])
    # training inputs in a centred frame, for the scatter plot of the fit
    centred = xt.numpy()
    centred -= centred.mean(axis=0)  # expect: untaped_write
    if report:
        print("train spread", np.round(centred.std(axis=0), 3))
    tape.backward(loss)
    return float(loss.numpy()[0]), hyp.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(8):
        l, g = evaluate(p, report=(it == 0))
        p -= 0.03 * g
        print(f"iter {it} mse {l:.4f} ell {np.exp(p[0]):.3f} amp {np.exp(p[1]):.3f}")
