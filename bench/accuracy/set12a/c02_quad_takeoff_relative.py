# correct: quadrotor takeoff whose logging helper subtracts the takeoff point into a new NumPy array, leaving the taped 2-D trajectory untouched
import numpy as np
import warp as wp

from _quad import quad_step_rows

STEPS = 40
N = 4
TARGET = np.array([0.4, -0.2, 1.2])


@wp.kernel
def final_cost(pos: wp.array2d(dtype=wp.vec3), t: int, target: wp.vec3, ctrl: wp.array(dtype=wp.vec4),
               cost: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[t, i] - target
    u = ctrl[0]
    wp.atomic_add(cost, 0, wp.dot(d, d) + 0.01 * (u[1] * u[1] + u[2] * u[2]))


class TakeoffRollout:
    def __init__(self, heights):
        self.heights = heights

    def run(self, thrust, roll, pitch):
        self.ctrl = wp.array([wp.vec4(thrust, roll, pitch, 0.0)], dtype=wp.vec4, requires_grad=True)
        start = np.zeros((STEPS + 1, N, 3))
        start[0, :, 2] = self.heights
        self.pos = wp.array(start, dtype=wp.vec3, requires_grad=True)
        self.vel = wp.zeros((STEPS + 1, N), dtype=wp.vec3, requires_grad=True)
        self.cost = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            for t in range(STEPS):
                wp.launch(quad_step_rows, dim=N, inputs=[self.pos, self.vel, self.ctrl, t])
            wp.launch(final_cost, dim=N, inputs=[self.pos, STEPS, wp.vec3(*TARGET), self.ctrl], outputs=[self.cost])

    def relative_track(self):
        P = self.pos.numpy()
        P = P - P[0]
        return P


PARAMS0 = np.array([3.4, 0.05, 0.1])


def evaluate(p):
    ro = TakeoffRollout(np.array([0.15, 0.2, 0.25, 0.3]))
    ro.run(*p)
    track = ro.relative_track()
    climb = track[-1, :, 2].mean()
    ro.tape.backward(ro.cost)
    g = ro.ctrl.grad.numpy()[0, :3].copy()
    return float(ro.cost.numpy()[0]), g


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("cost", loss, "grad", g)
