"""Identify the spring stiffness and damping of a cloth patch from its tracked end pose.

The patch is released tilted and swings under gravity for 30 frames at 120 Hz;
the tracked marker positions of the last frame are the data. A ClothSim
rollout on one tape keeps its states in a double buffer indexed by
step % num_buffers.
"""
import numpy as np
import warp as wp

from _cloth import N_PART, ClothState, cloth_step, position_error, rest_positions

wp.config.quiet = True

PARAMS0 = np.array([40.0, 0.020])  # k [N/m], c [N s/m]
FD_EPS = np.array([1e-2, 1e-4])


class ClothSim:
    def __init__(self, num_steps=30):
        self.num_steps = num_steps
        self.num_buffers = 2
        self.states = [ClothState() for _ in range(self.num_buffers)]

    def rollout(self, prm):
        """Simulate from rest (taped if a tape is active); returns the final state."""
        src = self.states[0]
        src.x.assign(rest_positions())
        src.v.zero_()
        for step in range(self.num_steps):
            dst = self.states[(step + 1) % self.num_buffers]
            wp.launch(cloth_step, dim=N_PART, inputs=[src.x, src.v, prm], outputs=[dst.x, dst.v])  # expect: ring_buffer
            src = dst
        return src


SIM = ClothSim()
TARGET = wp.clone(SIM.rollout(wp.array([55.0, 0.03], dtype=float)).x, requires_grad=False)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        final = SIM.rollout(prm)
        wp.launch(position_error, dim=N_PART, inputs=[final.x, TARGET], outputs=[loss])
    tape.backward(loss)
    g = prm.grad.numpy().astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"end-pose marker error {L:.3f} cm^2; d/d(k, c) = {g}")
