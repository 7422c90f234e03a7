# correct: b17_cloth_stiffness_from_video (a double buffer indexed by step % num_buffers, but every step is recorded on its own tape and differentiated before the buffer is reused)
"""Identify the spring stiffness and damping of a cloth patch by one-step-ahead prediction.

The tracked trajectory (positions and velocities at 120 Hz) is replayed frame
by frame: each observed frame is loaded into the double buffer, one step is
predicted on its own tape and compared with the next observed frame, and
backward runs at once. The objective is the sum of the one-step errors; each
frame's parameter gradient is added to a host total before tape.zero() clears
the parameter and state gradients for the next frame.
"""
import numpy as np
import warp as wp

from _cloth import N_PART, ClothState, cloth_step, position_error, rest_positions

wp.config.quiet = True

PARAMS0 = np.array([40.0, 0.020])  # k [N/m], c [N s/m]
FD_EPS = np.array([0.1, 2e-3])
N_FRAMES = 16


def tracked_trajectory(prm_true=(55.0, 0.03)):
    prm = wp.array(prm_true, dtype=float)
    s = ClothState()
    s.x.assign(rest_positions())
    xs, vs = [s.x.numpy()], [s.v.numpy()]
    for _ in range(N_FRAMES):
        nxt = ClothState()
        wp.launch(cloth_step, dim=N_PART, inputs=[s.x, s.v, prm], outputs=[nxt.x, nxt.v])
        s = nxt
        xs.append(s.x.numpy())
        vs.append(s.v.numpy())
    return np.array(xs), np.array(vs)


class ClothFit:
    def __init__(self):
        self.num_buffers = 2
        self.states = [ClothState() for _ in range(self.num_buffers)]
        self.obs_x, self.obs_v = tracked_trajectory()
        self.targets = [wp.array(x, dtype=wp.vec3) for x in self.obs_x]

    def one_step_error(self, prm):
        total = 0.0
        g_total = np.zeros(2)
        for step in range(N_FRAMES):
            src = self.states[step % self.num_buffers]
            dst = self.states[(step + 1) % self.num_buffers]
            src.x.assign(self.obs_x[step])
            src.v.assign(self.obs_v[step])
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            tape = wp.Tape()
            with tape:
                wp.launch(cloth_step, dim=N_PART, inputs=[src.x, src.v, prm], outputs=[dst.x, dst.v])
                wp.launch(position_error, dim=N_PART, inputs=[dst.x, self.targets[step + 1]], outputs=[loss])
            tape.backward(loss)
            total += float(loss.numpy()[0])
            g_total += prm.grad.numpy()
            tape.zero()
        return total, g_total


FIT = ClothFit()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    return FIT.one_step_error(prm)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"summed one-step marker error {L:.5f} cm^2 over {N_FRAMES} frames; d/d(k, c) = {g}")
