# correct: a vector of loss terms is seeded through grads= with per-term values, and those values are exactly the weights the program uses to combine the terms
"""Neural signed distance field of a 2-D shape (an ellipse outline), trained
with three loss terms: surface fit (SDF = 0 on samples), eikonal
(|grad f| = 1 at random points) and a small weight decay.  The network's
spatial gradient is computed analytically inside the kernel.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

HID = 8
N_SURF = 32
N_EIK = 32
WEIGHTS = np.array([1.0, 0.1, 1e-3], np.float32)  # surface, eikonal, decay


@wp.func
def sdf_and_grad(x: wp.vec2, W1: wp.array(dtype=wp.vec2), b1: wp.array(dtype=float), w2: wp.array(dtype=float), b2: float):
    f = b2
    g = wp.vec2(0.0, 0.0)
    for j in range(HID):
        t = wp.tanh(wp.dot(W1[j], x) + b1[j])
        f += w2[j] * t
        g += w2[j] * (1.0 - t * t) * W1[j]
    return f, g


@wp.kernel
def surface_term(pts: wp.array(dtype=wp.vec2), W1: wp.array(dtype=wp.vec2), b1: wp.array(dtype=float), w2: wp.array(dtype=float),
                 b2: wp.array(dtype=float), terms: wp.array(dtype=float)):
    i = wp.tid()
    f, g = sdf_and_grad(pts[i], W1, b1, w2, b2[0])
    wp.atomic_add(terms, 0, f * f / float(N_SURF))


@wp.kernel
def eikonal_term(pts: wp.array(dtype=wp.vec2), W1: wp.array(dtype=wp.vec2), b1: wp.array(dtype=float), w2: wp.array(dtype=float),
                 b2: wp.array(dtype=float), terms: wp.array(dtype=float)):
    i = wp.tid()
    f, g = sdf_and_grad(pts[i], W1, b1, w2, b2[0])
    e = wp.length(g) - 1.0
    wp.atomic_add(terms, 1, e * e / float(N_EIK))


@wp.kernel
def decay_term(w2: wp.array(dtype=float), terms: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(terms, 2, w2[j] * w2[j])


_rng = np.random.default_rng(9)
_t = _rng.uniform(0, 2 * np.pi, N_SURF)
SURF = wp.array(np.stack([0.7 * np.cos(_t), 0.4 * np.sin(_t)], 1).astype(np.float32), dtype=wp.vec2)
EIK = wp.array(_rng.uniform(-1, 1, (N_EIK, 2)).astype(np.float32), dtype=wp.vec2)
PARAMS0 = _rng.normal(0, 0.8, 4 * HID + 1)


class NeuralSDF:
    def __init__(self, p):
        p = np.asarray(p, np.float32)
        self.W1 = wp.array(p[: 2 * HID].reshape(HID, 2), dtype=wp.vec2, requires_grad=True)
        self.b1 = wp.array(p[2 * HID: 3 * HID], dtype=float, requires_grad=True)
        self.w2 = wp.array(p[3 * HID: 4 * HID], dtype=float, requires_grad=True)
        self.b2 = wp.array(p[4 * HID:], dtype=float, requires_grad=True)
        self.terms = wp.zeros(3, dtype=float, requires_grad=True)
        self.term_weights = wp.array(WEIGHTS, dtype=float)

    def params(self):
        return [self.W1, self.b1, self.w2, self.b2]

    def loss_and_grad(self):
        tape = wp.Tape()
        with tape:
            wp.launch(surface_term, dim=N_SURF, inputs=[SURF, *self.params()], outputs=[self.terms])
            wp.launch(eikonal_term, dim=N_EIK, inputs=[EIK, *self.params()], outputs=[self.terms])
            wp.launch(decay_term, dim=HID, inputs=[self.w2], outputs=[self.terms])
        tape.backward(grads={self.terms: self.term_weights})
        total = float(WEIGHTS @ self.terms.numpy())
        g = np.concatenate([a.grad.numpy().ravel() for a in self.params()]).astype(np.float64)
        return total, g


def evaluate(p):
    return NeuralSDF(p).loss_and_grad()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        model = NeuralSDF(p)
        loss, g = model.loss_and_grad()
        p -= 0.05 * g
        if it % 50 == 0:
            print(f"iter {it:3d} total {loss:.5f} terms {np.round(model.terms.numpy(), 4)}")
