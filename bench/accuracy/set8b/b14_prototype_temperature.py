"""Soft nearest-prototype classifier: learn three 2D prototypes and a softmax temperature.

The temperature is optimised in log space, tau = exp(log_tau), so it stays positive.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

K = 3
M = 18


@wp.kernel
def positive_param(log_v: wp.array(dtype=float), v: wp.array(dtype=float)):
    v[0] = wp.exp(log_v[0])


@wp.kernel
def proto_xent(x: wp.array(dtype=wp.vec2), label: wp.array(dtype=int), protos: wp.array(dtype=wp.vec2),
               tau: wp.array(dtype=float), inv_m: float, loss: wp.array(dtype=float)):
    m = wp.tid()
    inv_t = 1.0 / tau[0]
    logits = wp.vec3()
    for k in range(K):
        d = x[m] - protos[k]
        logits[k] = -wp.dot(d, d) * inv_t
    mx = wp.max(logits[0], wp.max(logits[1], logits[2]))
    lse = mx + wp.log(wp.exp(logits[0] - mx) + wp.exp(logits[1] - mx) + wp.exp(logits[2] - mx))
    wp.atomic_add(loss, 0, (lse - logits[label[m]]) * inv_m)


def data(seed=21):
    rng = np.random.default_rng(seed)
    c = np.array([[0.8, 0.1], [-0.4, 0.7], [-0.3, -0.7]])
    lab = np.arange(M) % K
    x = c[lab] + 0.35 * rng.normal(size=(M, 2))
    return wp.array(x.astype(np.float32), dtype=wp.vec2), wp.array(lab.astype(np.int32), dtype=int)


class ProtoNet:
    def __init__(self, p):
        p = np.asarray(p, dtype=np.float32)
        self.protos = wp.array(p[:2 * K].reshape(K, 2), dtype=wp.vec2, requires_grad=True)
        self.log_tau = wp.array(p[2 * K:], dtype=float, requires_grad=True)
        self.tau = wp.zeros(1, dtype=float, requires_grad=True)

    def loss(self, x, lab, tape):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(positive_param, dim=1, inputs=[self.log_tau], outputs=[self.tau], record_tape=False)  # expect: truncation
            wp.launch(proto_xent, dim=M, inputs=[x, lab, self.protos, self.tau, 1.0 / M], outputs=[loss])
        return loss

    def grad(self):
        return np.concatenate([self.protos.grad.numpy().ravel(), self.log_tau.grad.numpy()]).astype(np.float64)


PARAMS0 = np.array([0.5, 0.0, 0.0, 0.5, 0.0, -0.5, np.log(0.5)])


def evaluate(p):
    x, lab = data()
    net = ProtoNet(p)
    tape = wp.Tape()
    loss = net.loss(x, lab, tape)
    tape.backward(loss)
    return float(loss.numpy()[0]), net.grad()


if __name__ == "__main__":
    x, lab = data()
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.2 * g
        if it % 10 == 0:
            print(f"iter {it:2d} xent {loss:.4f} tau {np.exp(p[-1]):.3f}")
    print("prototypes", np.round(p[:6].reshape(K, 2), 3).tolist())
