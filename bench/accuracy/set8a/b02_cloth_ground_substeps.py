"""Drop a 3x3 cloth patch on the ground and fit the spring and contact stiffness so that
the patch ends up at a measured rest shape."""
import numpy as np
import warp as wp

import _cloth

wp.config.quiet = True
wp.set_device("cpu")

SUBSTEPS = 36
DT = 0.004


class ClothDrop:
    def __init__(self, nx=3, ny=3, spacing=0.1):
        x0, edges = _cloth.make_patch(nx, ny, spacing, 0.03)
        self.n = len(x0)
        self.x0 = x0
        self.edges = wp.array(edges, dtype=wp.vec2i)
        rest = np.linalg.norm(x0[edges[:, 1]] - x0[edges[:, 0]], axis=1)
        self.rest = wp.array(rest, dtype=wp.float64)
        self.forces = wp.zeros(self.n, dtype=wp.vec3d, requires_grad=True)
        self.states = None

    def alloc_states(self):
        v0 = np.zeros_like(self.x0)
        v0[:, 1] = -1.5
        self.states = [(wp.array(self.x0, dtype=wp.vec3d, requires_grad=True),
                        wp.array(v0, dtype=wp.vec3d, requires_grad=True))]
        for _ in range(SUBSTEPS):
            self.states.append((wp.zeros(self.n, dtype=wp.vec3d, requires_grad=True),
                                wp.zeros(self.n, dtype=wp.vec3d, requires_grad=True)))

    def substep(self, s, params):
        x, v = self.states[s]
        x1, v1 = self.states[s + 1]
        self.forces.zero_()  # expect: overwrite
        wp.launch(_cloth.spring_forces, dim=len(self.rest), inputs=[x, self.edges, self.rest, params], outputs=[self.forces])
        wp.launch(_cloth.ground_contact, dim=self.n, inputs=[x, v, params], outputs=[self.forces])
        wp.launch(_cloth.integrate, dim=self.n, inputs=[x, v, self.forces, wp.float64(10.0), wp.float64(DT)],
                  outputs=[x1, v1])

    def simulate(self, params):
        for s in range(SUBSTEPS):
            self.substep(s, params)
        return self.states[-1][0]


def make_target(sim):
    t = sim.x0.copy()
    t[:, 1] = -0.01
    return wp.array(t, dtype=wp.vec3d)


PARAMS0 = np.array([40.0, 4000.0])
FD_EPS = np.array([1e-4, 1e-2])


def evaluate(p):
    sim = ClothDrop()
    sim.alloc_states()
    target = make_target(sim)
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = sim.simulate(params)
        wp.launch(_cloth.drape_loss, dim=sim.n, inputs=[xf, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        l, g = evaluate(p)
        print(f"iter {it}: loss={l:.6e} grad={g}")
        p = p * np.exp(-0.05 * np.sign(g))
