"""Hanging mass-spring chain: identify spring stiffness and damping from the tip position.

A chain of point masses hangs from a pin and is released from a horizontal pose.
The simulator keeps two state buffers and alternates between them.
"""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_PARTICLES = 8
DT = 0.01
STEPS = 60


@wp.kernel
def chain_step(
    x: wp.array(dtype=wp.vec2d),
    v: wp.array(dtype=wp.vec2d),
    params: wp.array(dtype=wp.float64),
    rest: wp.float64,
    dt: wp.float64,
    x_out: wp.array(dtype=wp.vec2d),
    v_out: wp.array(dtype=wp.vec2d),
):
    i = wp.tid()
    k = params[0]
    c = params[1]
    n = x.shape[0]
    if i == 0:
        x_out[i] = x[i]
        v_out[i] = wp.vec2d(wp.float64(0.0), wp.float64(0.0))
        return
    f = wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    d = x[i - 1] - x[i]
    l = wp.length(d)
    f = f + k * (l - rest) * d / l
    if i < n - 1:
        d2 = x[i + 1] - x[i]
        l2 = wp.length(d2)
        f = f + k * (l2 - rest) * d2 / l2
    f = f - c * v[i]
    vn = v[i] + dt * f
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec2d), target: wp.vec2d, loss: wp.array(dtype=wp.float64)):
    d = x[x.shape[0] - 1] - target
    loss[0] = wp.dot(d, d)


class ChainSim:
    def __init__(self, n, rest=0.25):
        self.n = n
        self.rest = rest
        x0 = np.stack([np.arange(n) * rest, np.zeros(n)], axis=1)
        self.x0 = x0
        self.x = [wp.array(x0, dtype=wp.vec2d, requires_grad=True) for _ in range(2)]
        self.v = [wp.zeros(n, dtype=wp.vec2d, requires_grad=True) for _ in range(2)]
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)

    def reset(self):
        self.x[0].assign(self.x0)
        self.v[0].zero_()

    def step(self, k, params):
        a, b = k % 2, (k + 1) % 2
        args = [self.x[a], self.v[a], params, wp.float64(self.rest), wp.float64(DT)]
        wp.launch(chain_step, dim=self.n, inputs=args, outputs=[self.x[b], self.v[b]])  # expect: overwrite

    def rollout(self, params, steps, target):
        for k in range(steps):
            self.step(k, params)
        wp.launch(tip_loss, dim=1, inputs=[self.x[steps % 2], target], outputs=[self.loss])
        return self.loss


TARGET = wp.vec2d(0.9, -1.1)
PARAMS0 = np.array([30.0, 0.8])
FD_EPS = 1e-5


def evaluate(p):
    sim = ChainSim(N_PARTICLES)
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    sim.reset()
    tape = wp.Tape()
    with tape:
        loss = sim.rollout(params, STEPS, TARGET)
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        p = p - np.array([20.0, 0.05]) * g / (np.linalg.norm(g) + 1e-12)
        print(f"iter {it}: loss {l:.5f}  k={p[0]:.3f} c={p[1]:.4f}")
