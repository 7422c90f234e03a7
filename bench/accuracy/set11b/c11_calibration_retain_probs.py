# correct: the calibrated probabilities are kept with retain_grad=True and inspected, but exactly one taped launch assigns them; the confidence monitor only reads them back.
"""Post-hoc calibration of a frozen 3-class classifier: a temperature and
per-class biases (vector scaling) are fitted on held-out logits by minimising
the negative log-likelihood."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 60
C = 3
rng = np.random.default_rng(17)
LABELS = rng.integers(0, C, size=N).astype(np.int32)
LOGITS = (rng.normal(0.0, 1.0, size=(N, C)) + 3.0 * np.eye(C)[LABELS] * rng.uniform(0.2, 1.5, size=(N, 1))).astype(np.float32)
PARAMS0 = [0.0, 0.0, 0.0, 0.0]   # log temperature, class biases


@wp.kernel
def calibrate(logits: wp.array2d(dtype=float), prm: wp.array(dtype=float), probs: wp.array2d(dtype=float)):
    i = wp.tid()
    inv_t = wp.exp(-prm[0])
    z0 = logits[i, 0] * inv_t + prm[1]
    z1 = logits[i, 1] * inv_t + prm[2]
    z2 = logits[i, 2] * inv_t + prm[3]
    m = wp.max(z0, wp.max(z1, z2))
    e0 = wp.exp(z0 - m)
    e1 = wp.exp(z1 - m)
    e2 = wp.exp(z2 - m)
    s = e0 + e1 + e2
    probs[i, 0] = e0 / s
    probs[i, 1] = e1 / s
    probs[i, 2] = e2 / s


@wp.kernel
def nll(probs: wp.array2d(dtype=float), y: wp.array(dtype=wp.int32), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, -wp.log(probs[i, y[i]]) / float(probs.shape[0]))


class Calibrator:
    def __init__(self, p):
        self.prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.logits = wp.array(LOGITS, dtype=float)
        self.probs = wp.zeros((N, C), dtype=float, requires_grad=True, retain_grad=True)

    def forward(self):
        wp.launch(calibrate, dim=N, inputs=[self.logits, self.prm], outputs=[self.probs])
        return self.probs


def evaluate(p, log=False):
    cal = Calibrator(p)
    y = wp.array(LABELS, dtype=wp.int32)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        probs = cal.forward()
        confidence = probs.numpy().max(axis=1).mean()
        wp.launch(nll, dim=N, inputs=[probs, y], outputs=[loss])
    tape.backward(loss)
    if log:
        print(f"  mean confidence {confidence:.3f}, largest |dL/dp| {np.abs(cal.probs.grad.numpy()).max():.3f}")
    return float(loss.numpy()[0]), cal.prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p, log=(it % 20 == 0))
        p -= 0.5 * g
        if it % 20 == 0:
            print(f"iter {it} nll {l:.4f} temperature {np.exp(p[0]):.3f}")
