"""Least-squares fit of a radial-basis-function surface z(x) = sum_k w_k phi(|x - c_k|)
to scattered height samples, with mini-batch SGD (warp.optim.SGD, momentum).
Centres, weights and the shared log-width are all learned.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

K = 8
BATCH = 32


@wp.kernel
def rbf_residual(
    x: wp.array(dtype=wp.vec2),
    z: wp.array(dtype=float),
    centers: wp.array(dtype=wp.vec2),
    weights: wp.array(dtype=float),
    log_width: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    n = wp.tid()
    inv_w2 = wp.exp(-2.0 * log_width[0])
    pred = float(0.0)
    for k in range(K):
        d = x[n] - centers[k]
        pred += weights[k] * wp.exp(-wp.dot(d, d) * inv_w2)
    r = pred - z[n]
    wp.atomic_add(loss, 0, 0.5 * r * r / float(BATCH))


def terrain(x):
    return np.sin(2.5 * x[:, 0]) + 0.5 * np.cos(3.0 * x[:, 1]) * x[:, 0]


def batches(seed, count):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        x = rng.uniform(-1, 1, (BATCH, 2)).astype(np.float32)
        out.append((wp.array(x, dtype=wp.vec2), wp.array(terrain(x).astype(np.float32), dtype=float)))
    return out


def init_flat(seed=1):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.uniform(-0.8, 0.8, 2 * K), rng.normal(0, 0.5, K), [np.log(0.6)]])


class RBFSurface:
    def __init__(self, flat, lr=0.05):
        flat = np.asarray(flat, dtype=np.float32)
        self.centers = wp.array(flat[: 2 * K].reshape(K, 2), dtype=wp.vec2, requires_grad=True)
        self.weights = wp.array(flat[2 * K: 3 * K], dtype=float, requires_grad=True)
        self.log_width = wp.array(flat[3 * K:], dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = None
        self.opt = warp.optim.SGD(self.flat_params(), lr=lr, momentum=0.5)

    def flat_params(self):
        return [self.centers.flatten(), self.weights, self.log_width]

    def get_flat(self):
        return np.concatenate([a.numpy().ravel() for a in self.flat_params()]).astype(np.float64)

    def backward(self, x, z):
        self.loss.zero_()
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(rbf_residual, dim=BATCH, inputs=[x, z, self.centers, self.weights, self.log_width], outputs=[self.loss])
        self.tape.backward(self.loss)
        return float(self.loss.numpy()[0])

    def grad_flat(self):
        return np.concatenate([a.grad.numpy().ravel() for a in self.flat_params()]).astype(np.float64)

    def zero_grad(self):
        self.loss.grad.zero_()  # expect: missing_zero

    def step(self, x, z):
        loss = self.backward(x, z)
        self.opt.step([a.grad for a in self.flat_params()])
        self.zero_grad()
        return loss


DATA = batches(0, 8)
PARAMS0 = init_flat()


def loss_at(p, batch):
    m = RBFSurface(p)
    return m.backward(*batch)


def verify():
    """AD: the gradient the optimizer consumes at the second step.  FD: central
    differences of that step's mini-batch loss at the parameters of that step."""
    model = RBFSurface(PARAMS0)
    model.step(*DATA[0])
    p1 = model.get_flat()
    model.backward(*DATA[1])
    ad = model.grad_flat()
    h = 1e-3
    fd = np.zeros_like(p1)
    for i in range(p1.size):
        e = np.zeros_like(p1)
        e[i] = h
        fd[i] = (loss_at(p1 + e, DATA[1]) - loss_at(p1 - e, DATA[1])) / (2 * h)
    return ad, fd


if __name__ == "__main__":
    model = RBFSurface(PARAMS0)
    for epoch in range(10):
        losses = [model.step(x, z) for x, z in DATA]
        print(f"epoch {epoch} mean batch loss {np.mean(losses):.4f}")
