"""RBF-network regression trained with a hand-written heavy-ball (momentum) optimiser.

Objective: mean squared residual over the data set plus a small ridge penalty.
"""

import numpy as np
import warp as wp

from _rbf import N_CENTERS, centers, dataset, heavy_ball, rbf_predict, ridge, sq_residual

wp.config.quiet = True

LAM = 1e-3
LR = 0.05
BETA = 0.8


class Model:
    def __init__(self, amp0):
        x, y = dataset()
        self.n = len(x)
        self.x = wp.array(x, dtype=float)
        self.y = wp.array(y, dtype=float)
        self.c = wp.array(centers(), dtype=float)
        self.amp = wp.array(np.asarray(amp0, dtype=np.float32), dtype=float, requires_grad=True)
        self.vel = wp.zeros(N_CENTERS, dtype=float)
        self.pred = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def record(self, tape):
        self.loss.zero_()
        with tape:
            wp.launch(rbf_predict, dim=self.n, inputs=[self.x, self.c, self.amp], outputs=[self.pred])
            wp.launch(sq_residual, dim=self.n, inputs=[self.pred, self.y, 1.0 / self.n], outputs=[self.loss])
            wp.launch(ridge, dim=N_CENTERS, inputs=[self.amp, LAM], outputs=[self.loss])


def train(amp0, iters, log=False):
    """Run the optimiser; return (amp before the step, gradient the step used) per iteration."""
    m = Model(amp0)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        m.record(tape)
        tape.backward(m.loss)
        history.append((m.amp.numpy().astype(np.float64), m.amp.grad.numpy().astype(np.float64)))
        wp.launch(heavy_ball, dim=N_CENTERS, inputs=[m.amp, m.amp.grad, m.vel, LR, BETA])
        m.loss.grad.zero_()  # expect: missing_zero
        if log and it % 10 == 0:
            print(f"iter {it:2d} loss {m.loss.numpy()[0]:.5f}")
    return m, history


def objective(amp):
    m = Model(amp)
    tape = wp.Tape()
    m.record(tape)
    return float(m.loss.numpy()[0])


PARAMS0 = np.linspace(0.4, -0.4, N_CENTERS)


def verify():
    """Gradient the optimiser applies at its third step vs central differences at that iterate."""
    _, hist = train(PARAMS0, 3)
    amp, g_used = hist[2]
    fd = np.zeros_like(amp)
    for k in range(amp.size):
        h = 1e-3
        e = np.zeros_like(amp)
        e[k] = h
        fd[k] = (objective(amp + e) - objective(amp - e)) / (2 * h)
    return g_used, fd


if __name__ == "__main__":
    m, hist = train(PARAMS0, 40, log=True)
    print("amplitudes", np.round(m.amp.numpy(), 3))
