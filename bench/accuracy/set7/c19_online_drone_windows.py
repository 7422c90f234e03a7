# correct: Online tuning of a drone altitude controller: one tape reused per window, Adam step after each window.
"""Online tuning of a drone altitude controller: one tape reused per window, Adam step after each window."""
import numpy as np
import warp as wp
from warp.optim import Adam

W = 10          # steps per window
WINDOWS = 4
DT = 0.05


@wp.kernel
def altitude_step(s: wp.array(dtype=wp.vec2), gains: wp.array(dtype=float), z_ref: float,
                  s_out: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    z, vz = s[0][0], s[0][1]
    thrust = 9.81 + gains[0] * (z_ref - z) - gains[1] * vz
    az = wp.tanh(thrust / 20.0) * 20.0 - 9.81 - 0.2 * vz * wp.abs(vz)
    s_out[0] = wp.vec2(z + vz * DT, vz + az * DT)
    e = z_ref - z
    wp.atomic_add(cost, 0, e * e * DT)


class OnlineTuner:
    def __init__(self, g0, lr=0.2):
        self.gains = wp.array(g0, dtype=float, requires_grad=True)
        self.opt = Adam([self.gains], lr=lr)
        self.states = [wp.zeros(1, dtype=wp.vec2, requires_grad=True) for _ in range(W + 1)]
        self.tape = wp.Tape()
        self.log = []

    def window(self, cost):
        with self.tape:
            for t in range(W):
                wp.launch(altitude_step, dim=1, inputs=[self.states[t], self.gains, 1.0],
                          outputs=[self.states[t + 1], cost])
        self.tape.backward(cost)
        self.log.append((self.states[0].numpy().copy(), self.gains.numpy().copy(), self.gains.grad.numpy().copy()))
        self.opt.step([self.gains.grad])  # receding horizon: each window updates the gains
        self.tape.reset()
        wp.copy(self.states[0], self.states[W])  # continue from where this window ended

    def run(self):
        for _ in range(WINDOWS):
            self.window(wp.zeros(1, dtype=float, requires_grad=True))
        return self.gains.numpy()


def window_cost(s0, g):
    s = [wp.array(s0, dtype=wp.vec2)] + [wp.zeros(1, dtype=wp.vec2) for _ in range(W)]
    c = wp.zeros(1, dtype=float)
    for t in range(W):
        wp.launch(altitude_step, dim=1, inputs=[s[t], wp.array(g, dtype=float), 1.0], outputs=[s[t + 1], c])
    return float(c.numpy()[0])


def verify():
    tuner = OnlineTuner(np.array([4.0, 2.0], np.float32))
    tuner.run()
    ad, fd = [], []
    for s0, g, grad in tuner.log:  # each window's gradient is the one its own update uses
        ad += list(grad)
        fd += [(window_cost(s0, g + 1e-3 * e) - window_cost(s0, g - 1e-3 * e)) / 2e-3 for e in np.eye(2, dtype=np.float32)]
    return np.array(ad), np.array(fd)


if __name__ == "__main__":
    print("gains", OnlineTuner(np.array([4.0, 2.0], np.float32)).run())
