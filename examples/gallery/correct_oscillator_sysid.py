"""Identify stiffness and damping of a bank of nonlinear (Duffing) oscillators from recorded trajectories."""

import numpy as np
import warp as wp

from _adam import Adam

NUM_OSC = 8
STEPS = 40
DT = 0.03


@wp.kernel
def duffing_step(
    x: wp.array(dtype=float),
    v: wp.array(dtype=float),
    stiffness: wp.array(dtype=float),
    damping: wp.array(dtype=float),
    cubic: float,
    x_out: wp.array(dtype=float),
    v_out: wp.array(dtype=float),
):
    i = wp.tid()
    a = -stiffness[0] * x[i] - cubic * x[i] * x[i] * x[i] - damping[0] * v[i]
    v_new = v[i] + DT * a
    v_out[i] = v_new
    x_out[i] = x[i] + DT * v_new


@wp.kernel
def trajectory_error(x: wp.array(dtype=float), recorded: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - recorded[i]
    wp.atomic_add(loss, 0, d * d)


class SysId:
    def __init__(self, recordings, x0, v0):
        self.recordings = recordings
        self.x0 = x0
        self.v0 = v0
        self.stiffness = wp.array([2.0], dtype=float, requires_grad=True)
        self.damping = wp.array([0.05], dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.optimizer = Adam([self.stiffness, self.damping], lr=0.15)

    def forward(self):
        x, v = self.x0, self.v0
        for k in range(STEPS):
            x1 = wp.zeros(NUM_OSC, dtype=float, requires_grad=True)
            v1 = wp.zeros(NUM_OSC, dtype=float, requires_grad=True)
            wp.launch(duffing_step, dim=NUM_OSC, inputs=[x, v, self.stiffness, self.damping, 0.5], outputs=[x1, v1])
            wp.launch(trajectory_error, dim=NUM_OSC, inputs=[x1, self.recordings[k]], outputs=[self.loss])
            x, v = x1, v1

    def train(self, iterations):
        tape = wp.Tape()
        for it in range(iterations):
            self.loss.zero_()
            with tape:
                self.forward()
            tape.backward(self.loss)
            self.optimizer.step()
            if it % 20 == 0:
                print(f"iter {it:3d} loss {self.loss.numpy()[0]:.6f} k {self.stiffness.numpy()[0]:.4f} c {self.damping.numpy()[0]:.4f}")
            tape.zero()
            tape.reset()


def record(k=4.0, c=0.3, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, NUM_OSC)
    v = np.zeros(NUM_OSC)
    x0, v0 = x.copy(), v.copy()
    frames = []
    for _ in range(STEPS):
        a = -k * x - 0.5 * x**3 - c * v
        v = v + DT * a
        x = x + DT * v
        frames.append(wp.array(x.astype(np.float32), dtype=float))
    return frames, x0.astype(np.float32), v0.astype(np.float32)


def main():
    frames, x0, v0 = record()
    sysid = SysId(frames, wp.array(x0, dtype=float, requires_grad=True), wp.array(v0, dtype=float, requires_grad=True))
    sysid.train(80)
    print("identified stiffness", sysid.stiffness.numpy()[0], "damping", sysid.damping.numpy()[0], "(true 4.0, 0.3)")


if __name__ == "__main__":
    main()
