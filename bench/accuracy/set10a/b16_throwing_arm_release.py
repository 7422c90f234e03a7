"""A one-joint throwing arm swings up under a constant shoulder torque and
releases a ball, which then flies through a steady cross-wind with
quadratic drag. Fit the shoulder torque and estimate the wind from where the
ball lands.
"""
import numpy as np
import warp as wp

ARM_STEPS = 25
FLIGHT_STEPS = 40
DT = 0.01
ARM_LEN = 0.7
ARM_INERTIA = 0.25
PIVOT = wp.constant(wp.vec2(0.0, 1.0))


@wp.kernel
def swing(theta: wp.array(dtype=float), omega: wp.array(dtype=float), params: wp.array(dtype=float), dt: float,
          theta_out: wp.array(dtype=float), omega_out: wp.array(dtype=float)):
    th = theta[0]
    alpha = (params[0] - 3.0 * wp.cos(th) - 0.3 * omega[0]) / ARM_INERTIA
    w1 = omega[0] + dt * alpha
    omega_out[0] = w1
    theta_out[0] = th + dt * w1


@wp.kernel
def release(theta: wp.array(dtype=float), omega: wp.array(dtype=float), ball: wp.array(dtype=wp.vec4)):
    th = theta[0]
    p = PIVOT + ARM_LEN * wp.vec2(wp.cos(th), wp.sin(th))
    v = ARM_LEN * omega[0] * wp.vec2(-wp.sin(th), wp.cos(th))
    ball[0] = wp.vec4(p[0], p[1], v[0], v[1])


@wp.kernel
def fly(ball: wp.array(dtype=wp.vec4), params: wp.array(dtype=float), dt: float, ball_out: wp.array(dtype=wp.vec4)):
    b = ball[0]
    rel = wp.vec2(b[2] - params[1], b[3])
    a = -0.05 * wp.length(rel) * rel + wp.vec2(0.0, -9.81)
    vx = b[2] + dt * a[0]
    vy = b[3] + dt * a[1]
    ball_out[0] = wp.vec4(b[0] + dt * vx, b[1] + dt * vy, vx, vy)


@wp.kernel
def landing_loss(ball: wp.array(dtype=wp.vec4), target: wp.vec2, loss: wp.array(dtype=float)):
    b = ball[0]
    d = wp.vec2(b[0], b[1]) - target
    loss[0] = wp.dot(d, d)


TARGET = wp.vec2(-1.6, 0.9)
release_log = []


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    theta = wp.array([-1.2], dtype=float, requires_grad=True)
    omega = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(ARM_STEPS):
            th1, om1 = wp.empty_like(theta), wp.empty_like(omega)
            wp.launch(swing, dim=1, inputs=[theta, omega, params, DT], outputs=[th1, om1])
            theta, omega = th1, om1
        ball_release = wp.zeros(1, dtype=wp.vec4, requires_grad=True)
        wp.launch(release, dim=1, inputs=[theta, omega], outputs=[ball_release])
        release_log.append(ball_release.numpy()[0].copy())
        ball = wp.array(ball_release.numpy(), dtype=wp.vec4, requires_grad=True)  # expect: truncation
        for _ in range(FLIGHT_STEPS):
            b1 = wp.empty_like(ball)
            wp.launch(fly, dim=1, inputs=[ball, params, DT], outputs=[b1])
            ball = b1
        wp.launch(landing_loss, dim=1, inputs=[ball, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([6.0, -1.0])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("landing miss", l, "grad (torque, wind)", g, "release state", release_log[-1])
