# correct: car lane-change policy whose steering saturation is a taped launch writing a separate control array before the dynamics read it
import numpy as np
import warp as wp

from _car import car_step, lane_cost

T = 30
N = 5
MAX_STEER = 0.25


@wp.kernel
def lane_policy(theta: wp.array(dtype=float), t: int, ctrl: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    phase = float(t) / 30.0
    steer = theta[0] * wp.sin(6.2831853 * phase) + theta[1] * (1.0 - phase)
    ctrl[t, i] = wp.vec2(theta[2] * (1.0 - phase), steer * (1.0 + 0.1 * float(i)))


@wp.kernel
def saturate(raw: wp.array2d(dtype=wp.vec2), t: int, limit: float, ctrl: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    u = raw[t, i]
    ctrl[t, i] = wp.vec2(u[0], limit * wp.tanh(u[1] / limit))


PARAMS0 = np.array([0.35, 0.05, 0.8])


def evaluate(p):
    theta = wp.array(p, dtype=float, requires_grad=True)
    init = np.zeros((T + 1, N, 4))
    init[0, :, 3] = np.linspace(8.0, 10.0, N)
    states = wp.array(init, dtype=wp.vec4, requires_grad=True)
    raw = wp.zeros((T, N), dtype=wp.vec2, requires_grad=True)
    ctrl = wp.zeros_like(raw)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(T):
            wp.launch(lane_policy, dim=N, inputs=[theta, t], outputs=[raw])
            wp.launch(saturate, dim=N, inputs=[raw, t, MAX_STEER], outputs=[ctrl])
            wp.launch(car_step, dim=N, inputs=[states, ctrl, t])
            wp.launch(lane_cost, dim=N, inputs=[states, t + 1, 3.5, 9.0], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), theta.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("lane cost", loss, "grad", g)
