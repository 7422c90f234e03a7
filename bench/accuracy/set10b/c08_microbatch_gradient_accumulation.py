# correct: gradients are accumulated over several backward passes without zeroing in between, on purpose (micro-batches at fixed parameters), and zeroed after every optimizer step
"""Logistic regression with polynomial features, trained with gradient
accumulation: each optimizer step sums the gradients of 4 micro-batches
(each scaled by 1/4), then applies warp.optim.SGD and zeroes.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

MICRO = 16
N_MICRO = 4
N_FEAT = 6


@wp.func
def features(x: wp.vec2, f: int):
    out = float(1.0)
    if f == 1:
        out = x[0]
    elif f == 2:
        out = x[1]
    elif f == 3:
        out = x[0] * x[0]
    elif f == 4:
        out = x[1] * x[1]
    elif f == 5:
        out = x[0] * x[1]
    return out


@wp.kernel
def logistic_nll(x: wp.array(dtype=wp.vec2), label: wp.array(dtype=float), w: wp.array(dtype=float), scale: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    z = float(0.0)
    for f in range(N_FEAT):
        z += w[f] * features(x[i], f)
    # log(1 + exp(-y z)) with y in {-1, 1}, written stably
    m = -label[i] * z
    nll = wp.max(m, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(m)))
    wp.atomic_add(loss, 0, scale * nll / float(MICRO))


def micro_batches(step):
    rng = np.random.default_rng(1000 + step)
    out = []
    for _ in range(N_MICRO):
        x = rng.normal(size=(MICRO, 2)).astype(np.float32)
        y = np.where(x[:, 0] ** 2 + 0.5 * x[:, 1] ** 2 + 0.3 * x[:, 0] > 1.0, 1.0, -1.0).astype(np.float32)
        out.append((wp.array(x, dtype=wp.vec2), wp.array(y, dtype=float)))
    return out


class Trainer:
    def __init__(self, w0, lr=0.5):
        self.w = wp.array(np.asarray(w0, np.float32), dtype=float, requires_grad=True)
        self.opt = warp.optim.SGD([self.w], lr=lr)

    def accumulate(self, batches):
        """Sum the gradients of all micro-batches into w.grad; returns the mean loss."""
        total = 0.0
        for x, y in batches:
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            tape = wp.Tape()
            with tape:
                wp.launch(logistic_nll, dim=MICRO, inputs=[x, y, self.w, 1.0 / N_MICRO], outputs=[loss])
            tape.backward(loss)
            total += float(loss.numpy()[0])
        return total

    def step(self, batches):
        loss = self.accumulate(batches)
        self.opt.step([self.w.grad])
        self.w.grad.zero_()
        return loss


def objective(w, batches):
    return Trainer(w).accumulate(batches)


PARAMS0 = np.array([0.1, 0.2, -0.1, 0.3, 0.1, 0.0])


def verify():
    """AD: accumulated gradient used by the second optimizer step; FD: central
    differences of that step's full objective (mean over its micro-batches)."""
    tr = Trainer(PARAMS0)
    tr.step(micro_batches(0))
    w1 = tr.w.numpy().astype(np.float64)
    b1 = micro_batches(1)
    tr.accumulate(b1)
    ad = tr.w.grad.numpy().astype(np.float64).copy()
    h = 1e-3
    fd = np.array([(objective(w1 + h * e, b1) - objective(w1 - h * e, b1)) / (2 * h) for e in np.eye(N_FEAT)])
    return ad, fd


if __name__ == "__main__":
    tr = Trainer(PARAMS0)
    for s in range(60):
        loss = tr.step(micro_batches(s))
        if s % 15 == 0:
            print(f"step {s:2d} nll {loss:.4f} w {np.round(tr.w.numpy(), 2)}")
