# correct: the environment's reset() clears and refills the recorded trajectory buffers, but only after tape.backward() has consumed them.
"""Analytic policy gradient for a batch of pendulums: a 3-gain feedback law is
trained to damp the swing with little torque; a fresh batch of initial
states is drawn for every episode."""
import numpy as np
import warp as wp

from _pendulum_env import PendulumBatch

wp.config.quiet = True

BATCH = 24
HORIZON = 30
PARAMS0 = [-4.0, -1.0, 0.3]


@wp.kernel
def swing_energy(traj: wp.array2d(dtype=wp.vec2), torque: wp.array2d(dtype=float), w: float,
                 cost: wp.array(dtype=float)):
    t, b = wp.tid()
    s = traj[t + 1, b]
    energy = 0.5 * s[1] * s[1] + 9.81 * (1.0 - wp.cos(s[0]))
    wp.atomic_add(cost, 0, w * (energy + 0.05 * torque[t, b] * torque[t, b]))


def episode(env, p):
    theta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        traj, torque = env.rollout(theta)
        wp.launch(swing_energy, dim=(HORIZON, BATCH), inputs=[traj, torque, 1.0 / BATCH], outputs=[cost])
    tape.backward(cost)
    grad = theta.grad.numpy().copy()
    env.reset()
    return float(cost.numpy()[0]), grad


def evaluate(p):
    env = PendulumBatch(BATCH, HORIZON, seed=9)
    return episode(env, p)


if __name__ == "__main__":
    env = PendulumBatch(BATCH, HORIZON, seed=9)
    p = np.array(PARAMS0)
    for it in range(10):
        c, g = episode(env, p)
        p -= 0.02 * g
        print(f"episode {it} cost {c:.3f} gains {np.round(p, 3)}")
