"""Throw a ball with quadratic air drag so that it bounces once and lands on a target.

The launch velocity is optimised over repeated episodes of a small environment class.
"""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")


@wp.kernel
def ball_step(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), drag: wp.float64, ke: wp.float64,
              dt: wp.float64, x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    vel = v[i]
    pos = x[i]
    f = wp.vec2d(wp.float64(0.0), wp.float64(-9.81)) - drag * wp.length(vel) * vel
    if pos[1] < wp.float64(0.0):
        f = f + wp.vec2d(wp.float64(0.0), ke * pos[1] * pos[1])
    vn = vel + dt * f
    v_out[i] = vn
    x_out[i] = pos + dt * vn


@wp.kernel
def landing_loss(x: wp.array(dtype=wp.vec2d), target: wp.vec2d, loss: wp.array(dtype=wp.float64)):
    d = x[0] - target
    loss[0] = wp.dot(d, d)


@wp.kernel
def set_velocity(v0: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec2d)):
    v[0] = wp.vec2d(v0[0], v0[1])


class BallEnv:
    def __init__(self, steps=90, dt=0.01):
        self.steps = steps
        self.dt = dt
        self.x = [wp.zeros(1, dtype=wp.vec2d, requires_grad=True) for _ in range(steps + 1)]
        self.v = [wp.zeros(1, dtype=wp.vec2d, requires_grad=True) for _ in range(steps + 1)]
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
        self.start = np.array([[0.0, 1.0]])
        self.reset()

    def reset(self):
        for a in self.x + self.v:
            a.zero_()
        self.x[0].assign(self.start)
        self.loss.zero_()

    def rollout(self, v0, target):
        wp.launch(set_velocity, dim=1, inputs=[v0], outputs=[self.v[0]])
        for k in range(self.steps):
            wp.launch(ball_step, dim=1,
                      inputs=[self.x[k], self.v[k], wp.float64(0.05), wp.float64(3.0e4), wp.float64(self.dt)],
                      outputs=[self.x[k + 1], self.v[k + 1]])
        wp.launch(landing_loss, dim=1, inputs=[self.x[-1], target], outputs=[self.loss])
        return self.loss


TARGET = wp.vec2d(2.6, 0.15)


def episode(env, v0):
    tape = wp.Tape()
    with tape:
        loss = env.rollout(v0, TARGET)
    value = float(loss.numpy()[0])
    env.reset()  # expect: untaped_write
    tape.backward(loss)
    g = v0.grad.numpy().copy()
    tape.zero()
    return value, g


PARAMS0 = np.array([2.2, 1.5])
FD_EPS = 1e-5


def evaluate(p):
    env = BallEnv()
    v0 = wp.array(p, dtype=wp.float64, requires_grad=True)
    return episode(env, v0)


if __name__ == "__main__":
    env = BallEnv()
    v0 = wp.array(PARAMS0, dtype=wp.float64, requires_grad=True)
    for it in range(8):
        value, g = episode(env, v0)
        v0.assign(v0.numpy() - 0.2 * g)
        print(f"episode {it}: loss {value:.5f}  v0={v0.numpy()}")
