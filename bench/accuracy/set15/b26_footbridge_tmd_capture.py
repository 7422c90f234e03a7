"""Tune a footbridge's tuned mass damper (frequency ratio, damping ratio) with a captured training step.

The deck's first vertical mode (2.0 Hz, 0.5 % damping, with a cubic stiffening
of the bearings) carries a TMD of 2 % modal mass; six crowd-loading scenarios
with step frequencies around resonance are simulated for 3 s. The RMS deck
displacement is minimised by SGD; forward, backward, update and the gradient
reset are captured with wp.ScopedCapture and replayed.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SCEN = 6
N_STEPS = 150
DT = 0.02
OMEGA_DECK = 2.0 * np.pi * 2.0
MU = 0.02  # TMD mass ratio
PRM0 = np.array([0.93, 0.09], dtype=np.float32)  # frequency ratio, TMD damping ratio
LR = np.array([2.0e-3, 2.0e-3], dtype=np.float32)


@wp.kernel
def deck_step(s: wp.array(dtype=wp.vec4), step_freq: wp.array(dtype=float), prm: wp.array(dtype=float), t: int,
              s_out: wp.array(dtype=wp.vec4), cost: wp.array(dtype=float)):
    # state: deck displacement [mm], deck velocity, TMD displacement, TMD velocity
    i = wp.tid()
    x = s[i]
    w0 = float(OMEGA_DECK)
    wt = prm[0] * w0
    f_crowd = 30.0 * wp.sin(2.0 * wp.pi * step_freq[i] * float(t) * DT)
    rel = x[2] - x[0]
    rel_v = x[3] - x[1]
    f_tmd = MU * (wt * wt * rel + 2.0 * prm[1] * wt * rel_v)
    a_deck = f_crowd - w0 * w0 * (x[0] + 0.004 * x[0] * x[0] * x[0]) - 2.0 * 0.005 * w0 * x[1] + f_tmd
    a_tmd = -f_tmd / MU
    v_deck = x[1] + DT * a_deck
    v_tmd = x[3] + DT * a_tmd
    s_out[i] = wp.vec4(x[0] + DT * v_deck, v_deck, x[2] + DT * v_tmd, v_tmd)
    wp.atomic_add(cost, 0, (x[0] + DT * v_deck) * (x[0] + DT * v_deck) / float(N_STEPS * N_SCEN))


@wp.kernel
def sgd(prm: wp.array(dtype=float), g: wp.array(dtype=float), lr: wp.array(dtype=float)):
    i = wp.tid()
    prm[i] = prm[i] - lr[i] * g[i]


class TMDTrainer:
    def __init__(self):
        self.freqs = wp.array(np.linspace(1.8, 2.2, N_SCEN).astype(np.float32), dtype=float)
        self.prm = wp.array(PRM0, dtype=float, requires_grad=True)
        self.lr = wp.array(LR, dtype=float)
        self.states = [wp.zeros(N_SCEN, dtype=wp.vec4, requires_grad=True)] * (N_STEPS + 1)  # expect: graph_capture
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.grad_used = wp.zeros(2, dtype=float)
        self.tape = wp.Tape()
        with wp.ScopedCapture(force_module_load=True) as capture:
            self.loss.zero_()
            self.states[0].zero_()
            with self.tape:
                self.rollout(self.prm, self.states, self.loss)
            self.tape.backward(self.loss)
            wp.copy(self.grad_used, self.prm.grad)
            wp.launch(sgd, dim=2, inputs=[self.prm, self.prm.grad, self.lr])
            self.tape.zero()
        self.graph = capture.graph

    def rollout(self, prm, states, loss):
        for t in range(N_STEPS):
            wp.launch(deck_step, dim=N_SCEN, inputs=[states[t], self.freqs, prm, t], outputs=[states[t + 1], loss])

    def train_step(self):
        before = self.prm.numpy().copy()
        wp.capture_launch(self.graph)
        return before, self.grad_used.numpy().copy(), float(self.loss.numpy()[0])


def objective(trainer, prm):
    states = [wp.zeros(N_SCEN, dtype=wp.vec4) for _ in range(N_STEPS + 1)]
    loss = wp.zeros(1, dtype=float)
    trainer.rollout(wp.array(np.asarray(prm, dtype=np.float32), dtype=float), states, loss)
    return float(loss.numpy()[0])


def verify(n_steps=3, eps=1e-3):
    """The gradient the last captured update consumed vs central FD of the mean squared deck displacement."""
    tr = TMDTrainer()
    for _ in range(n_steps):
        prm, grad, _ = tr.train_step()
    fd = []
    for k in range(prm.size):
        e = np.zeros(prm.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(tr, prm + e) - objective(tr, prm - e)) / (2 * eps))
    return grad, np.array(fd)


if __name__ == "__main__":
    tr = TMDTrainer()
    for it in range(6):
        prm, grad, loss = tr.train_step()
        print(f"step {it}: mean squared deck displacement {loss:.3f} mm^2, TMD (ratio, zeta) {np.round(prm, 4)}")
