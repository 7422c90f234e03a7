import numpy as np
import warp as wp

from _car import car_step

T = 24
M = 6


@wp.kernel
def waypoint_error(states: wp.array2d(dtype=wp.vec4), t: int, k: int, waypoints: wp.array(dtype=wp.vec2),
                   err: wp.array(dtype=float)):
    s = states[t, 0]
    d = wp.vec2(s[0], s[1]) - waypoints[k]
    err[k] = wp.dot(d, d)


WAYPOINTS = np.array([[1.2, 0.1], [2.4, 0.4], [3.5, 0.9], [4.5, 1.6], [5.3, 2.4], [6.0, 3.3]])
PARAMS0 = np.array([0.3, 0.12])


def evaluate(p):
    ctrl_np = np.tile(p, (T, 1)) * np.linspace(1.0, 0.6, T)[:, None]
    ctrl = wp.array(ctrl_np.reshape(T, 1, 2), dtype=wp.vec2, requires_grad=True)
    init = np.zeros((T + 1, 1, 4))
    init[0, 0, 3] = 6.0
    states = wp.array(init, dtype=wp.vec4, requires_grad=True)
    wps = wp.array(WAYPOINTS, dtype=wp.vec2)
    err = wp.zeros(M, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(T):
            wp.launch(car_step, dim=1, inputs=[states, ctrl, t])
            if (t + 1) % 4 == 0:
                wp.launch(waypoint_error, dim=1, inputs=[states, t + 1, (t + 1) // 4 - 1, wps], outputs=[err])
    loss = err.numpy().mean()
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    g = (ctrl.grad.numpy()[:, 0] * np.linspace(1.0, 0.6, T)[:, None]).sum(axis=0)
    return float(loss), g


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("mean waypoint error", loss, "grad", g)
