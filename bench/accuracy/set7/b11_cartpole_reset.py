"""Differentiable cart-pole: tune linear feedback gains over a short horizon, episodic training."""
import numpy as np
import warp as wp

T = 30
DT = 0.02
BATCH = 8


@wp.kernel
def cartpole_step(s: wp.array(dtype=wp.vec4), gains: wp.array(dtype=wp.vec4), s_out: wp.array(dtype=wp.vec4),
                  cost: wp.array(dtype=float)):
    i = wp.tid()
    x, xd, th, thd = s[i][0], s[i][1], s[i][2], s[i][3]
    u = -wp.dot(gains[0], s[i])
    st, ct = wp.sin(th), wp.cos(th)
    denom = 1.1 - 0.1 * ct * ct
    xdd = (u + 0.05 * thd * thd * st - 0.1 * 9.8 * st * ct) / denom
    thdd = (9.8 * st - ct * xdd) / 0.5
    s_out[i] = wp.vec4(x + xd * DT, xd + xdd * DT, th + thd * DT, thd + thdd * DT)
    wp.atomic_add(cost, 0, (th * th + 0.1 * x * x + 0.001 * u * u) / float(BATCH))


class CartPoleEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.states = [wp.zeros(BATCH, dtype=wp.vec4, requires_grad=True) for _ in range(T + 1)]
        self.reset()

    def reset(self):
        init = np.zeros((BATCH, 4), dtype=np.float32)
        init[:, 2] = self.rng.uniform(-0.3, 0.3, BATCH)
        self.states[0].assign(init)

    def rollout(self, gains, cost):
        for t in range(T):
            wp.launch(cartpole_step, dim=BATCH, inputs=[self.states[t], gains], outputs=[self.states[t + 1], cost])


def train(gains_np, episodes, lr=0.5, record=None):
    env = CartPoleEnv()
    gains = wp.array([gains_np], dtype=wp.vec4, requires_grad=True)
    for ep in range(episodes):
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        start = env.states[0].numpy().copy()
        with tape:
            env.rollout(gains, cost)
        env.reset()  # expect: untaped_write
        tape.backward(cost)
        if record is not None:
            record.append((start, gains.numpy()[0].copy(), gains.grad.numpy()[0].copy()))
        gains.assign(gains.numpy() - lr * gains.grad.numpy())
        tape.zero()
    return gains.numpy()[0]


def cost_from(start, g):
    env = CartPoleEnv()
    env.states[0].assign(start)
    cost = wp.zeros(1, dtype=float)
    env.rollout(wp.array([g], dtype=wp.vec4), cost)
    return float(cost.numpy()[0])


def verify():
    rec = []
    train(np.array([0.5, 1.0, 20.0, 3.0], np.float32), 2, record=rec)
    start, g, ad = rec[0]
    fd = [(cost_from(start, g + 1e-2 * e) - cost_from(start, g - 1e-2 * e)) / 2e-2 for e in np.eye(4, dtype=np.float32)]
    return ad, np.array(fd)


if __name__ == "__main__":
    print("gains", train(np.array([0.5, 1.0, 20.0, 3.0], np.float32), 10))
