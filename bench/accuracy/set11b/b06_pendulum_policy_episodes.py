"""Policy-gradient-free (analytic) training of a 3-parameter feedback policy
that keeps a batch of pendulums near the upright position: the reward is
differentiated through the simulator."""
import numpy as np
import warp as wp

from _pendulum_env import PendulumBatch

wp.config.quiet = True

BATCH = 16
HORIZON = 40
PARAMS0 = [-6.0, -1.5, 0.5]


@wp.kernel
def episode_cost(traj: wp.array2d(dtype=wp.vec2), torque: wp.array2d(dtype=float), inv_b: float,
                 cost: wp.array(dtype=float)):
    t, b = wp.tid()
    s = traj[t + 1, b]
    c = s[0] * s[0] + 0.1 * s[1] * s[1] + 0.01 * torque[t, b] * torque[t, b]
    wp.atomic_add(cost, 0, inv_b * c)


def train_step(env, p):
    theta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        traj, torque = env.rollout(theta)
        wp.launch(episode_cost, dim=(HORIZON, BATCH), inputs=[traj, torque, 1.0 / BATCH], outputs=[cost])
    value = float(cost.numpy()[0])
    env.reset()  # expect: untaped_write
    tape.backward(cost)
    return value, theta.grad.numpy().copy()


def evaluate(p):
    env = PendulumBatch(BATCH, HORIZON, seed=3)
    return train_step(env, p)


if __name__ == "__main__":
    env = PendulumBatch(BATCH, HORIZON, seed=3)
    p = np.array(PARAMS0)
    for it in range(10):
        c, g = train_step(env, p)
        p -= 0.01 * g
        print(f"episode {it} cost {c:.4f} theta {np.round(p, 3)}")
