# correct: gate logits kept with retain_grad=True for inspection and logged from the same forward pass, but only one taped launch writes them
"""Mixture of two linear experts with a softmax gate (hard-ish piecewise
regression).  The gate logits are retained so their gradient can be
inspected; the mean gate entropy is logged every step.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
E = 2


@wp.kernel
def gate_logits(x: wp.array(dtype=float), Wg: wp.array(dtype=wp.vec2), logits: wp.array2d(dtype=float)):
    i, e = wp.tid()
    logits[i, e] = Wg[e][0] * x[i] + Wg[e][1]


@wp.kernel
def mixture_mse(x: wp.array(dtype=float), y: wp.array(dtype=float), logits: wp.array2d(dtype=float), experts: wp.array(dtype=wp.vec2),
                loss: wp.array(dtype=float)):
    i = wp.tid()
    m = wp.max(logits[i, 0], logits[i, 1])
    e0 = wp.exp(logits[i, 0] - m)
    e1 = wp.exp(logits[i, 1] - m)
    g0 = e0 / (e0 + e1)
    p0 = experts[0][0] * x[i] + experts[0][1]
    p1 = experts[1][0] * x[i] + experts[1][1]
    r = g0 * p0 + (1.0 - g0) * p1 - y[i]
    wp.atomic_add(loss, 0, r * r / float(N))


class MixtureOfExperts:
    def __init__(self, p):
        p = np.asarray(p, np.float32)
        self.Wg = wp.array(p[:4].reshape(2, 2), dtype=wp.vec2, requires_grad=True)
        self.experts = wp.array(p[4:].reshape(2, 2), dtype=wp.vec2, requires_grad=True)
        self.logits = wp.zeros((N, E), dtype=float, requires_grad=True, retain_grad=True)
        self.entropy = []

    def log_gate_entropy(self):
        z = self.logits.numpy()
        q = np.exp(z - z.max(1, keepdims=True))
        q /= q.sum(1, keepdims=True)
        self.entropy.append(float(-(q * np.log(q + 1e-12)).sum(1).mean()))

    def loss_and_grad(self, x, y):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(gate_logits, dim=(N, E), inputs=[x, self.Wg], outputs=[self.logits])
            self.log_gate_entropy()
            wp.launch(mixture_mse, dim=N, inputs=[x, y, self.logits, self.experts], outputs=[loss])
        tape.backward(loss)
        self.logit_saliency = np.abs(self.logits.grad.numpy()).sum(1)
        g = np.concatenate([self.Wg.grad.numpy().ravel(), self.experts.grad.numpy().ravel()]).astype(np.float64)
        return float(loss.numpy()[0]), g


def data():
    x = np.linspace(-2, 2, N)
    y = np.where(x < 0.3, -0.8 * x + 0.2, 1.5 * x - 0.5) + 0.05 * np.sin(7 * x)
    return wp.array(x.astype(np.float32), dtype=float), wp.array(y.astype(np.float32), dtype=float)


X, Y = data()
PARAMS0 = np.array([2.0, -0.5, -2.0, 0.5, -0.5, 0.0, 1.0, -0.2])


def evaluate(p):
    return MixtureOfExperts(p).loss_and_grad(X, Y)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        moe = MixtureOfExperts(p)
        loss, g = moe.loss_and_grad(X, Y)
        p -= 0.1 * g
        if it % 50 == 0:
            print(f"iter {it:3d} mse {loss:.5f} gate entropy {moe.entropy[-1]:.3f}")
