import numpy as np
import warp as wp

N = 5
DT = 0.03


@wp.kernel
def rope_step(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    wind: wp.array(dtype=wp.vec3),
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    f = wp.vec3(0.0, -9.8, 0.0) + wind[0] * (1.0 + 0.5 * wp.sin(x[i][1]))
    if i > 0:
        d = x[i] - x[i - 1]
        l = wp.length(d)
        f = f - 80.0 * (l - 0.2) * d / l
    if i < N - 1:
        d = x[i] - x[i + 1]
        l = wp.length(d)
        f = f - 80.0 * (l - 0.2) * d / l
    vn = (v[i] + f * DT) * 0.98
    if i == 0:
        vn = wp.vec3(0.0, 0.0, 0.0)
    v_out[i] = vn
    x_out[i] = x[i] + vn * DT


@wp.kernel
def end_height(x: wp.array(dtype=wp.vec3), goal: wp.vec3, loss: wp.array(dtype=wp.float32)):
    d = x[N - 1] - goal
    loss[0] = wp.dot(d, d)


class Rope:
    def __init__(self, steps):
        x0 = np.zeros((N, 3), dtype=np.float32)
        x0[:, 0] = np.arange(N) * 0.2
        self.steps = steps
        self.x = [wp.array(x0, dtype=wp.vec3, requires_grad=True) for _ in range(steps + 1)]
        self.v = [wp.zeros(N, dtype=wp.vec3, requires_grad=True) for _ in range(steps + 1)]
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def advance(self, wind, t):
        wp.launch(rope_step, dim=N, inputs=[self.x[t], self.v[t], wind], outputs=[self.x[t + 1], self.v[t + 1]])

    def measure(self, goal):
        wp.launch(end_height, dim=1, inputs=[self.x[self.steps], goal], outputs=[self.loss])
