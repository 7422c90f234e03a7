"""Multinomial logistic regression on a 2-D, three-class toy set. The class
probabilities keep their gradient (retain_grad) so that the per-sample
sensitivities can be inspected after training."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 48
C = 3
rng = np.random.default_rng(11)
CENTRES = np.array([[-1.0, 0.0], [1.0, 0.5], [0.0, -1.2]], dtype=np.float32)
LABELS = np.repeat(np.arange(C), N // C).astype(np.int32)
X = (CENTRES[LABELS] + 0.6 * rng.normal(size=(N, 2))).astype(np.float32)
PARAMS0 = [0.2, -0.1, 0.0, 0.3, 0.1, 0.1, 0.0, 0.1, -0.1]   # W (3x2) row-major, then b (3)


@wp.kernel
def affine(x: wp.array(dtype=wp.vec2), theta: wp.array(dtype=float), logits: wp.array2d(dtype=float)):
    i, c = wp.tid()
    logits[i, c] = theta[2 * c] * x[i][0] + theta[2 * c + 1] * x[i][1] + theta[2 * C + c]


@wp.kernel
def softmax(logits: wp.array2d(dtype=float), probs: wp.array2d(dtype=float)):
    i = wp.tid()
    m = wp.max(wp.max(logits[i, 0], logits[i, 1]), logits[i, 2])
    e0 = wp.exp(logits[i, 0] - m)
    e1 = wp.exp(logits[i, 1] - m)
    e2 = wp.exp(logits[i, 2] - m)
    s = e0 + e1 + e2
    probs[i, 0] = e0 / s
    probs[i, 1] = e1 / s
    probs[i, 2] = e2 / s


@wp.kernel
def cross_entropy(probs: wp.array2d(dtype=float), y: wp.array(dtype=wp.int32), inv_n: float,
                  loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, -inv_n * wp.log(probs[i, y[i]]))


class SoftmaxRegression:
    def __init__(self, theta, n):
        self.theta = wp.array(np.asarray(theta, dtype=np.float32), dtype=float, requires_grad=True)
        self.logits = wp.zeros((n, C), dtype=float, requires_grad=True)
        self.probs = wp.zeros((n, C), dtype=float, requires_grad=True, retain_grad=True)

    def predict_proba(self, x):
        wp.launch(affine, dim=(x.shape[0], C), inputs=[x, self.theta], outputs=[self.logits])
        wp.launch(softmax, dim=x.shape[0], inputs=[self.logits], outputs=[self.probs])
        return self.probs


def evaluate(p, log=False):
    model = SoftmaxRegression(p, N)
    x = wp.array(X, dtype=wp.vec2)
    y = wp.array(LABELS, dtype=wp.int32)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        probs = model.predict_proba(x)
        confidence = model.predict_proba(x).numpy().max(axis=1).mean()  # expect: retain_grad
        wp.launch(cross_entropy, dim=N, inputs=[probs, y, 1.0 / N], outputs=[loss])
    tape.backward(loss)
    if log:
        print(f"  mean confidence {confidence:.3f}, largest |dL/dp| {np.abs(model.probs.grad.numpy()).max():.3f}")
    return float(loss.numpy()[0]), model.theta.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p, log=(it % 10 == 0))
        p -= 0.5 * g
        if it % 10 == 0:
            print(f"iter {it} cross-entropy {l:.4f}")
