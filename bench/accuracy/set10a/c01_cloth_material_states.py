# correct: looks like a ping-pong state swap, but every substep reads states[s] and writes its own preallocated states[s + 1]
"""Identify the stiffness and damping of a hanging cloth from the measured
sag of its bottom corners.

State lives in a @wp.struct (positions + velocities). All substep states are
allocated once up front and reused across optimiser iterations; inside one
rollout each substep still gets its own output state.
"""
import numpy as np
import warp as wp

from _cloth_grid import GridCloth

DT = 0.01
SUBSTEPS = 20
GRAVITY = wp.constant(wp.vec3(0.0, -9.81, 0.0))


@wp.struct
class ClothState:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)


@wp.kernel
def spring_forces(
    s: ClothState,
    springs: wp.array2d(dtype=wp.int32),
    rest: wp.array(dtype=float),
    material: wp.array(dtype=float),
    f: wp.array(dtype=wp.vec3),
):
    k = wp.tid()
    i = springs[k, 0]
    j = springs[k, 1]
    d = s.x[j] - s.x[i]
    l = wp.length(d)
    n = d / l
    c = material[0] * (l - rest[k]) + material[1] * wp.dot(s.v[j] - s.v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def semi_implicit_euler(
    s: ClothState,
    f: wp.array(dtype=wp.vec3),
    inv_mass: wp.array(dtype=float),
    dt: float,
    out: ClothState,
):
    i = wp.tid()
    w = inv_mass[i]
    if w > 0.0:
        v1 = s.v[i] + (f[i] * w + GRAVITY) * dt
        out.v[i] = v1
        out.x[i] = s.x[i] + v1 * dt
    else:
        out.v[i] = wp.vec3(0.0)
        out.x[i] = s.x[i]


@wp.kernel
def sag_loss(s: ClothState, corners: wp.array(dtype=wp.int32), measured: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    k = wp.tid()
    d = s.x[corners[k]][1] - measured[k]
    wp.atomic_add(loss, 0, 100.0 * d * d)


def make_state(n):
    s = ClothState()
    s.x = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    s.v = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    return s


class ClothIdentification:
    def __init__(self):
        self.cloth = GridCloth(nx=4, ny=5, spacing=0.1, mass=0.05, bend=False)
        n = self.cloth.n
        self.states = [make_state(n) for _ in range(SUBSTEPS + 1)]
        self.forces = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(SUBSTEPS)]
        self.corners = wp.array(self.cloth.corner_indices(), dtype=wp.int32)
        self.measured = wp.array([-0.47, -0.46], dtype=float)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def reset(self):
        self.states[0].x.assign(self.cloth.positions_np)
        self.states[0].v.zero_()
        for f in self.forces:
            f.zero_()
        self.loss.zero_()

    def loss_and_grad(self, material_np):
        c = self.cloth
        material = wp.array(material_np, dtype=float, requires_grad=True)
        self.reset()
        tape = wp.Tape()
        with tape:
            for s in range(SUBSTEPS):
                src, dst = self.states[s], self.states[s + 1]
                wp.launch(spring_forces, dim=c.n_springs, inputs=[src, c.springs, c.rest, material],
                          outputs=[self.forces[s]])
                wp.launch(semi_implicit_euler, dim=c.n, inputs=[src, self.forces[s], c.inv_mass, DT],
                          outputs=[dst])
            wp.launch(sag_loss, dim=2, inputs=[self.states[-1], self.corners, self.measured], outputs=[self.loss])
        tape.backward(self.loss)
        g = material.grad.numpy().copy()
        tape.zero()
        return float(self.loss.numpy()[0]), g


_model = None


def evaluate(p):
    global _model
    if _model is None:
        _model = ClothIdentification()
    return _model.loss_and_grad(np.asarray(p, dtype=np.float32))


PARAMS0 = np.array([120.0, 0.8])
FD_EPS = [0.05, 0.005]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("loss", l, "d loss / d (ke, kd)", g)
