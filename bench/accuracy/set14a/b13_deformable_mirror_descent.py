"""Closed-loop correction of a static aberration with an 8-actuator deformable mirror.

The controller maximises the Strehl ratio by gradient descent on the actuator
commands, with the gradient from Warp. Each iteration records the tape, takes the
gradient, resets the tape for the next loop and applies the command update.
"""
import numpy as np
import warp as wp

from _dm import N_ACT, strehl_deficit


class MirrorController:
    def __init__(self, gain=0.02):
        self.cmd = wp.zeros(N_ACT, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        self.gain = gain
        self.log = []

    def iterate(self):
        with self.tape:
            deficit = strehl_deficit(self.cmd)
        self.tape.backward(deficit)
        g = self.cmd.grad  # expect: grad_read
        self.tape.reset()
        c = self.cmd.numpy().copy()
        g_used = g.numpy().copy()
        self.log.append((c, g_used, 1.0 - float(deficit.numpy()[0])))
        self.cmd.assign(c - self.gain * g_used)


def objective(c):
    return float(strehl_deficit(wp.array(np.asarray(c, dtype=np.float32), dtype=float)).numpy()[0])


def verify(n_iter=4, eps=1e-3):
    """Gradient the controller applied at its last iteration vs central FD there."""
    mc = MirrorController()
    for _ in range(n_iter):
        mc.iterate()
    c, g, _ = mc.log[-1]
    fd = []
    for k in range(c.size):
        e = np.zeros(c.size)
        e[k] = eps
        fd.append((objective(c + e) - objective(c - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    mc = MirrorController()
    for it in range(6):
        mc.iterate()
        print(f"iter {it}: Strehl {mc.log[-1][2]:.4f}, |step| {np.abs(mc.log[-1][1]).max():.4f}")
