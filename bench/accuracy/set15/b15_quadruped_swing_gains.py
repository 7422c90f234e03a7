"""Tune the swing-phase PD gains of a quadruped leg so the foot lands on target.

Sixteen legs start from different lift-off angles; 40 steps of 5 ms are rolled
out on one tape and the foot-placement error at touchdown is differentiated
with respect to (kp, kd). The simulator keeps its states in a small ring that
is reused step after step.
"""
import numpy as np
import warp as wp

from _legsim import N_LEGS, LegState, foot_error, foot_target, initial_angles, set_initial, swing_step

wp.config.quiet = True

PARAMS0 = np.array([60.0, 6.0])  # kp [1/s^2], kd [1/s]
FD_EPS = np.array([1e-2, 1e-3])


class SwingSim:
    def __init__(self, num_steps=40, dt=0.005):
        self.num_steps = num_steps
        self.dt = dt
        self.num_buffers = 2
        self.states = [LegState(N_LEGS) for _ in range(self.num_buffers)]
        self.q0 = wp.array(initial_angles(), dtype=wp.vec2)

    def touchdown_error(self, gains):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            s_in = self.states[0]
            wp.launch(set_initial, dim=N_LEGS, inputs=[self.q0], outputs=[s_in.q, s_in.qd])
            for step in range(self.num_steps):
                s_out = self.states[(step + 1) % self.num_buffers]
                wp.launch(swing_step, dim=N_LEGS, inputs=[s_in.q, s_in.qd, gains, self.dt], outputs=[s_out.q, s_out.qd])  # expect: ring_buffer
                s_in = s_out
            wp.launch(foot_error, dim=N_LEGS, inputs=[s_in.q, foot_target()], outputs=[loss])
        tape.backward(loss)
        return loss, tape


SIM = SwingSim()


def evaluate(p):
    gains = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss, tape = SIM.touchdown_error(gains)
    g = gains.grad.numpy().astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean squared foot error {L:.3f} cm^2; d/d(kp, kd) = {g}")
