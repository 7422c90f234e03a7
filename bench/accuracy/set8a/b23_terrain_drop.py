"""Particles dropped onto a wavy terrain with a smooth penalty contact. Fits the contact
stiffness (log scale) and the terrain amplitude to where the particles come to rest."""
import numpy as np
import warp as wp

from _terrain import soft_penetration, terrain_height, terrain_slope

wp.config.quiet = True
wp.set_device("cpu")

STEPS = 80
DT = 0.004
H_SOFT = 0.01
X0 = np.array([[0.1, 0.15], [0.45, 0.2], [0.8, 0.12], [1.2, 0.18]])
REST = np.array([[0.02, -0.02], [0.52, 0.06], [0.92, 0.02], [1.05, -0.1]])


@wp.kernel
def terrain_step(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), p: wp.array(dtype=wp.float64),
                 dt: wp.float64, h: wp.float64, x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    ke = wp.exp(p[0])
    amp = p[1]
    xi = x[i]
    phi = xi[1] - terrain_height(xi[0], amp)
    pen = soft_penetration(phi, h)
    s = terrain_slope(xi[0], amp)
    n = wp.vec2d(-s, wp.float64(1.0)) / wp.sqrt(wp.float64(1.0) + s * s)
    f = ke * pen * n - wp.float64(3.0) * v[i] + wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    vn = v[i] + dt * f
    v_out[i] = vn
    x_out[i] = xi + dt * vn


@wp.kernel
def rest_misfit(x: wp.array(dtype=wp.vec2d), rest: wp.array(dtype=wp.vec2d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - rest[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class TerrainDrop:
    def __init__(self):
        self.n = len(X0)
        self.rest = wp.array(REST, dtype=wp.vec2d)

    def __call__(self, p_np):
        p = wp.array(p_np, dtype=wp.float64, requires_grad=True)
        x = wp.array(X0, dtype=wp.vec2d, requires_grad=True)
        v = wp.zeros(self.n, dtype=wp.vec2d, requires_grad=True)
        loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for _ in range(STEPS):
                x_next = wp.empty_like(x)
                v_next = wp.empty_like(v)
                wp.launch(terrain_step, dim=self.n, inputs=[x, v, p, wp.float64(DT), wp.float64(H_SOFT)],
                          outputs=[x_next, v_next])
                x, v = x_next, v_next
            wp.launch(rest_misfit, dim=self.n, inputs=[x, self.rest], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), p.grad.numpy().copy()


PARAMS0 = np.array([np.log(400.0), 0.08])
FD_EPS = 1e-6


def evaluate(p):
    return TerrainDrop()(p)


if __name__ == "__main__":
    drop = TerrainDrop()
    p = PARAMS0.copy()
    for it in range(5):
        l, g = drop(p)
        p = p - 0.5 * g
        print(f"iter {it}: misfit {l:.6f}  ke={np.exp(p[0]):.1f} amp={p[1]:.4f}")
