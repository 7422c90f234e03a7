"""Hanging mass-spring chain shared by the cloth programs."""
import numpy as np
import warp as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))


@wp.kernel
def spring_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), springs: wp.array(dtype=wp.vec2i),
                  rest: wp.array(dtype=float), params: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = springs[s][0]
    j = springs[s][1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    fs = (params[0] * (l - rest[s]) + params[1] * wp.dot(v[j] - v[i], n)) * n
    wp.atomic_add(f, i, fs)
    wp.atomic_sub(f, j, fs)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
              inv_mass: wp.array(dtype=float), dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    w = inv_mass[i]
    if w == 0.0:
        x_out[i] = x[i]
        v_out[i] = v[i]
        return
    v1 = v[i] + dt * (f[i] * w + GRAVITY)
    x_out[i] = x[i] + dt * v1
    v_out[i] = v1


@wp.kernel
def target_loss(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class Chain:
    def __init__(self, n=8, seg=0.1, dt=0.01):
        self.n = n
        self.dt = dt
        pos = np.zeros((n, 3), dtype=np.float32)
        pos[:, 0] = np.arange(n) * seg
        self.x0 = wp.array(pos, dtype=wp.vec3, requires_grad=True)
        self.v0 = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        self.springs = wp.array(np.stack([np.arange(n - 1), np.arange(1, n)], 1).astype(np.int32), dtype=wp.vec2i)
        self.rest = wp.full(n - 1, seg, dtype=float)
        inv = np.ones(n, dtype=np.float32)
        inv[0] = 0.0
        self.inv_mass = wp.array(inv, dtype=float)
        tgt = pos.copy()
        tgt[:, 1] = -0.15 * np.arange(n) * seg
        self.target = wp.array(tgt, dtype=wp.vec3)

    def new_state(self):
        return (wp.zeros(self.n, dtype=wp.vec3, requires_grad=True),
                wp.zeros(self.n, dtype=wp.vec3, requires_grad=True))

    def step(self, params, x, v, x_out, v_out):
        f = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)
        wp.launch(spring_forces, dim=self.n - 1, inputs=[x, v, self.springs, self.rest, params], outputs=[f])
        wp.launch(integrate, dim=self.n, inputs=[x, v, f, self.inv_mass, self.dt], outputs=[x_out, v_out])

    def loss(self, x, loss):
        wp.launch(target_loss, dim=self.n, inputs=[x, self.target], outputs=[loss])
