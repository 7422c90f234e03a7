"""Plan the thrust schedule of a planar quadrotor (point mass with thrust
and tilt per control knot) to reach a waypoint and hover there; trained with
warp.optim.Adam. The gradient is kept in a separate buffer per iteration
so the optimiser never sees it change under its feet.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

KNOTS = 5
SUB = 8
DT = 0.02
MASS = 0.8
WAYPOINT = wp.constant(wp.vec2(1.0, 1.5))


@wp.kernel
def fly(controls: wp.array(dtype=float), dt: float, states: wp.array(dtype=wp.vec4)):
    # one thread integrates the whole flight; states[t] = (x, y, vx, vy)
    for k in range(KNOTS):
        thrust = controls[2 * k]
        tilt = controls[2 * k + 1]
        for s in range(SUB):
            t = k * SUB + s
            st = states[t]
            ax = thrust * wp.sin(tilt) / MASS - 0.2 * st[2]
            ay = thrust * wp.cos(tilt) / MASS - 9.81 - 0.2 * st[3]
            vx = st[2] + dt * ax
            vy = st[3] + dt * ay
            states[t + 1] = wp.vec4(st[0] + dt * vx, st[1] + dt * vy, vx, vy)


@wp.kernel
def waypoint_loss(states: wp.array(dtype=wp.vec4), controls: wp.array(dtype=float), loss: wp.array(dtype=float)):
    st = states[states.shape[0] - 1]
    d = wp.vec2(st[0], st[1]) - WAYPOINT
    v = wp.vec2(st[2], st[3])
    effort = float(0.0)
    for k in range(KNOTS):
        effort += 1e-3 * (controls[2 * k] - MASS * 9.81) * (controls[2 * k] - MASS * 9.81)
    loss[0] = wp.dot(d, d) + 0.1 * wp.dot(v, v) + effort


class DronePlanner:
    def __init__(self, c0):
        self.controls = wp.array(c0, dtype=float, requires_grad=True)
        self.opt = Adam([self.controls], lr=0.02)

    def objective(self, c_np):
        states = wp.zeros(KNOTS * SUB + 1, dtype=wp.vec4)
        loss = wp.zeros(1, dtype=float)
        c = wp.array(np.asarray(c_np, dtype=np.float32), dtype=float)
        wp.launch(fly, dim=1, inputs=[c, DT], outputs=[states])
        wp.launch(waypoint_loss, dim=1, inputs=[states, c], outputs=[loss])
        return float(loss.numpy()[0])

    def iteration(self):
        states = wp.zeros(KNOTS * SUB + 1, dtype=wp.vec4, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(fly, dim=1, inputs=[self.controls, DT], outputs=[states])
            wp.launch(waypoint_loss, dim=1, inputs=[states, self.controls], outputs=[loss])
        grad = wp.clone(self.controls.grad)  # expect: grad_read
        tape.backward(loss)
        used = (self.controls.numpy().copy(), grad.numpy().copy())
        self.opt.step([grad])
        tape.zero()
        return float(loss.numpy()[0]), used


C0 = np.array([8.5, 0.2, 8.2, 0.15, 7.9, 0.05, 7.8, 0.0, 7.8, -0.05], dtype=np.float32)


def verify():
    """AD: the gradient Adam consumed in the 3rd iteration; FD: central
    differences of the objective at that iteration's controls."""
    planner = DronePlanner(C0)
    for _ in range(3):
        _, (c_used, g_used) = planner.iteration()
    eps = 1e-3
    fd = np.zeros(c_used.size)
    for i in range(c_used.size):
        cp, cm = c_used.copy(), c_used.copy()
        cp[i] += eps
        cm[i] -= eps
        fd[i] = (planner.objective(cp) - planner.objective(cm)) / (2 * eps)
    return g_used, fd


if __name__ == "__main__":
    planner = DronePlanner(C0)
    for it in range(5):
        l, _ = planner.iteration()
        print(f"iter {it}: loss {l:.4f}")
