"""Linear softmax classifier on three Gaussian blobs, trained with SGD + weight decay.

Parameters are one flat vector theta = [W (3x2 row-major), b (3)].
"""

import numpy as np
import warp as wp

wp.config.quiet = True

C = 3
N = 24
WD = 1e-2


@wp.kernel
def softmax_xent(x: wp.array(dtype=wp.vec2), label: wp.array(dtype=int), theta: wp.array(dtype=float),
                 inv_n: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    p = x[n]
    l0 = theta[0] * p[0] + theta[1] * p[1] + theta[6]
    l1 = theta[2] * p[0] + theta[3] * p[1] + theta[7]
    l2 = theta[4] * p[0] + theta[5] * p[1] + theta[8]
    m = wp.max(l0, wp.max(l1, l2))
    lse = m + wp.log(wp.exp(l0 - m) + wp.exp(l1 - m) + wp.exp(l2 - m))
    ly = wp.where(label[n] == 0, l0, wp.where(label[n] == 1, l1, l2))
    wp.atomic_add(loss, 0, (lse - ly) * inv_n)


@wp.kernel
def weight_decay(theta: wp.array(dtype=float), wd: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    if i < 6:
        wp.atomic_add(loss, 0, 0.5 * wd * theta[i] * theta[i])


@wp.kernel
def sgd_update(theta: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    theta[i] = theta[i] - lr * grad[i]


def blobs(seed=5):
    rng = np.random.default_rng(seed)
    centres = np.array([[1.0, 0.0], [-0.5, 0.9], [-0.5, -0.9]])
    lab = np.arange(N) % C
    x = centres[lab] + 0.45 * rng.normal(size=(N, 2))
    return wp.array(x.astype(np.float32), dtype=wp.vec2), wp.array(lab.astype(np.int32), dtype=int)


def objective(theta, x, lab):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(softmax_xent, dim=N, inputs=[x, lab, theta, 1.0 / N], outputs=[loss])
    wp.launch(weight_decay, dim=9, inputs=[theta, WD], outputs=[loss])
    return loss


def train(theta0, iters, lr=0.5, log=False):
    """Returns per iteration (theta before the update, the gradient the update applied)."""
    x, lab = blobs()
    theta = wp.array(np.asarray(theta0, dtype=np.float32), dtype=float, requires_grad=True)
    history = []
    for it in range(iters):
        before = theta.numpy().astype(np.float64)
        tape = wp.Tape()
        with tape:
            loss = objective(theta, x, lab)
        wp.launch(sgd_update, dim=9, inputs=[theta, theta.grad, lr])  # expect: grad_read
        tape.backward(loss)
        tape.zero()
        history.append((before, (before - theta.numpy().astype(np.float64)) / lr))
        if log and it % 10 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.4f}")
    return theta, history


PARAMS0 = np.array([0.1, -0.2, 0.0, 0.3, -0.1, 0.05, 0.0, 0.1, -0.1])


def verify():
    _, hist = train(PARAMS0, 3)
    theta, g_used = hist[2]
    x, lab = blobs()
    fd = np.zeros_like(theta)
    for k in range(theta.size):
        e = np.zeros_like(theta)
        e[k] = 1e-3
        lp = objective(wp.array((theta + e).astype(np.float32)), x, lab).numpy()[0]
        lm = objective(wp.array((theta - e).astype(np.float32)), x, lab).numpy()[0]
        fd[k] = (lp - lm) / 2e-3
    return g_used, fd


if __name__ == "__main__":
    theta, _ = train(PARAMS0, 30, log=True)
    print("theta", np.round(theta.numpy(), 3))
