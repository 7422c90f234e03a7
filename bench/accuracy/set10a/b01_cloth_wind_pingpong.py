"""Fit a uniform wind so that a pinned cloth patch blows its bottom corners
onto two target points.

Mass-spring cloth (structural, shear and bend springs), semi-implicit Euler,
linear air drag towards the wind velocity. Positions are kept in two
preallocated buffers to avoid allocating a state per substep.
"""
import numpy as np
import warp as wp

from _cloth_grid import GridCloth

DT = 0.01
SUBSTEPS = 24
KE = 150.0
KD = 0.5
DRAG = 0.8
GRAVITY = wp.constant(wp.vec3(0.0, -9.81, 0.0))


@wp.kernel
def eval_springs(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    springs: wp.array2d(dtype=wp.int32),
    rest: wp.array(dtype=float),
    ke: float,
    kd: float,
    f: wp.array(dtype=wp.vec3),
):
    s = wp.tid()
    i = springs[s, 0]
    j = springs[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    c = ke * (l - rest[s]) + kd * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def integrate(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    f: wp.array(dtype=wp.vec3),
    inv_mass: wp.array(dtype=float),
    wind: wp.array(dtype=wp.vec3),
    drag: float,
    dt: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    w = inv_mass[i]
    free = wp.where(w > 0.0, 1.0, 0.0)
    a = f[i] * w + free * (GRAVITY + drag * (wind[0] - v[i]))
    v1 = v[i] + a * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def corner_loss(
    x: wp.array(dtype=wp.vec3),
    corners: wp.array(dtype=wp.int32),
    targets: wp.array(dtype=wp.vec3),
    loss: wp.array(dtype=float),
):
    k = wp.tid()
    d = x[corners[k]] - targets[k]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class WindFit:
    def __init__(self):
        self.cloth = GridCloth(nx=5, ny=5, spacing=0.1, mass=0.1)
        n = self.cloth.n
        self.x0 = wp.array(self.cloth.positions_np, dtype=wp.vec3, requires_grad=True)
        self.v0 = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        # two position buffers, reused every other substep
        self.x_pool = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(2)]
        self.corners = wp.array(self.cloth.corner_indices(), dtype=wp.int32)
        self.targets = wp.array([[0.05, -0.35, 0.25], [0.45, -0.35, 0.25]], dtype=wp.vec3)

    def rollout(self, wind):
        c = self.cloth
        x, v = self.x0, self.v0
        for s in range(SUBSTEPS):
            f = wp.zeros(c.n, dtype=wp.vec3, requires_grad=True)
            wp.launch(eval_springs, dim=c.n_springs, inputs=[x, v, c.springs, c.rest, KE, KD], outputs=[f])
            x_next = self.x_pool[(s + 1) % 2]  # expect: overwrite
            v_next = wp.empty_like(v)
            wp.launch(integrate, dim=c.n, inputs=[x, v, f, c.inv_mass, wind, DRAG, DT], outputs=[x_next, v_next])
            x, v = x_next, v_next
        return x

    def loss_and_grad(self, wind_np):
        wind = wp.array([wind_np], dtype=wp.vec3, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            x_end = self.rollout(wind)
            wp.launch(corner_loss, dim=2, inputs=[x_end, self.corners, self.targets], outputs=[loss])
        tape.backward(loss)
        g = wind.grad.numpy()[0].copy()
        tape.zero()
        return float(loss.numpy()[0]), g


_fit = None


def evaluate(p):
    global _fit
    if _fit is None:
        _fit = WindFit()
    return _fit.loss_and_grad(np.asarray(p, dtype=np.float32))


PARAMS0 = np.array([0.5, 0.0, 2.0])
FD_EPS = 1e-2

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        l, g = evaluate(p)
        print(f"iter {it}: loss {l:.5f} wind {p} grad {g}")
        p = p - 0.5 * g
