# correct: the prediction kernel loops over a runtime number of training points (a dynamic loop), but the loop only accumulates a sum with += that is stored as it is.
"""Gaussian-process posterior mean with fixed dual weights on 1-D data:
tune the log length-scale and the log amplitude of a rational-quadratic
kernel on held-out targets. Each thread loops over the training set."""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 20
Q = 30
rng = np.random.default_rng(37)
XT = np.sort(rng.uniform(-2.0, 2.0, M)).astype(np.float32)
ALPHA = (0.8 * np.sin(2.0 * XT) + 0.2 * rng.normal(size=M)).astype(np.float32)
XQ = np.linspace(-1.8, 1.8, Q).astype(np.float32)
YQ = (0.9 * np.sin(2.0 * XQ) * np.exp(-0.1 * XQ * XQ)).astype(np.float32)
PARAMS0 = [np.log(0.5), np.log(0.8)]


@wp.kernel
def posterior_mean(xq: wp.array(dtype=float), xt: wp.array(dtype=float), alpha: wp.array(dtype=float),
                   n_train: int, hyp: wp.array(dtype=float), mean: wp.array(dtype=float)):
    i = wp.tid()
    ell2 = wp.exp(2.0 * hyp[0])
    amp = wp.exp(hyp[1])
    s = float(0.0)
    for j in range(n_train):
        d = xq[i] - xt[j]
        s += alpha[j] * amp / (1.0 + 0.5 * d * d / ell2)
    mean[i] = s


@wp.kernel
def mse(mean: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = mean[i] - y[i]
    wp.atomic_add(loss, 0, r * r / float(mean.shape[0]))


def evaluate(p):
    hyp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    mean = wp.zeros(Q, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(posterior_mean, dim=Q, inputs=[wp.array(XQ, dtype=float), wp.array(XT, dtype=float),
                                                 wp.array(ALPHA, dtype=float), M, hyp], outputs=[mean])
        wp.launch(mse, dim=Q, inputs=[mean, wp.array(YQ, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), hyp.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.1 * g
        if it % 10 == 0:
            print(f"iter {it} mse {l:.4f} ell {np.exp(p[0]):.3f} amp {np.exp(p[1]):.3f}")
