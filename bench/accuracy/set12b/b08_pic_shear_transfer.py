import numpy as np
import warp as wp

from _pic import NG, g2p, grid_velocity, p2g, sample_particles

wp.init()

ITERS = 3
P_INIT = [0.8, -0.3, 0.2]


@wp.kernel
def particle_velocity(x: wp.array(dtype=wp.vec2), flow: wp.array(dtype=float), v: wp.array(dtype=wp.vec2)):
    p = wp.tid()
    y = x[p][1]
    v[p] = wp.vec2(flow[0] * y + flow[2] * y * y, flow[1] * x[p][0])


@wp.kernel
def mismatch(v: wp.array(dtype=wp.vec2), v_obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    p = wp.tid()
    d = v[p] - v_obs[p]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class ShearTransfer:
    def __init__(self):
        xs = sample_particles()
        self.n = len(xs)
        self.x = wp.array(xs, dtype=wp.vec2)
        obs = np.stack([0.5 * xs[:, 1] - 0.2 * xs[:, 1] ** 2, 0.1 * xs[:, 0]], 1).astype(np.float32)
        self.v_obs = wp.array(obs, dtype=wp.vec2)
        self.grid_m = wp.zeros((NG + 1, NG + 1), dtype=float, requires_grad=True)
        self.grid_mv = wp.zeros((NG + 1, NG + 1), dtype=wp.vec2, requires_grad=True)
        self.grid_v = wp.zeros((NG + 1, NG + 1), dtype=wp.vec2, requires_grad=True)

    def clear(self):
        for a in (self.grid_m, self.grid_v):  # expect: missing_zero
            a.zero_()
            a.grad.zero_()

    def forward(self, flow):
        v = wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)
        v_back = wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(particle_velocity, dim=self.n, inputs=[self.x, flow], outputs=[v])
        wp.launch(p2g, dim=self.n, inputs=[self.x, v, 1.0], outputs=[self.grid_m, self.grid_mv])
        wp.launch(grid_velocity, dim=(NG + 1, NG + 1), inputs=[self.grid_m, self.grid_mv], outputs=[self.grid_v])
        wp.launch(g2p, dim=self.n, inputs=[self.x, self.grid_v], outputs=[v_back])
        wp.launch(mismatch, dim=self.n, inputs=[v_back, self.v_obs], outputs=[loss])
        return loss


def objective(p):
    model = ShearTransfer()
    return float(model.forward(wp.array(np.asarray(p, dtype=np.float32), dtype=float)).numpy()[0])


def train(iters=ITERS, lr=0.05):
    model = ShearTransfer()
    flow = np.array(P_INIT, dtype=np.float32)
    for _ in range(iters):
        model.clear()
        flow_wp = wp.array(flow, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            loss = model.forward(flow_wp)
        tape.backward(loss)
        g = flow_wp.grad.numpy().copy()
        p_at = flow.copy()
        flow = flow - lr * g
    return p_at, g


def verify():
    p, g = train()
    eps = 1e-3
    fd = np.array([(objective(p + eps * e) - objective(p - eps * e)) / (2 * eps) for e in np.eye(3)])
    return g, fd


if __name__ == "__main__":
    print(train())
