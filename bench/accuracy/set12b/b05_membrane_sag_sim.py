import numpy as np
import warp as wp

from _fem import Mesh, elastic_forces, symplectic_euler

wp.init()

PARAMS0 = [20.0, 40.0]
FD_EPS = [5e-2, 5e-2]


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec2), tip: int, target: wp.vec2, loss: wp.array(dtype=float)):
    d = x[tip] - target
    loss[0] = wp.dot(d, d)


class MembraneSim:
    def __init__(self, steps=40, dt=0.005):
        self.mesh = Mesh()
        self.steps = steps
        self.dt = dt
        self.tip = self.mesh.n - 1

    def rollout(self, mat):
        m = self.mesh
        x = wp.clone(m.X)
        v = wp.zeros(m.n, dtype=wp.vec2, requires_grad=True)
        for _ in range(self.steps):
            f = wp.zeros(m.n, dtype=wp.vec2)  # expect: requires_grad
            wp.launch(elastic_forces, dim=m.m, inputs=[x, m.tris, m.Dm_inv, m.area, mat], outputs=[f])
            x_new = wp.empty_like(x)
            v_new = wp.empty_like(v)
            wp.launch(symplectic_euler, dim=m.n, inputs=[x, v, f, m.inv_mass, self.dt], outputs=[x_new, v_new])
            x, v = x_new, v_new
        return x

    def objective(self, p):
        mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            x = self.rollout(mat)
            wp.launch(tip_loss, dim=1, inputs=[x, self.tip, wp.vec2(0.95, 0.45)], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), mat.grad.numpy().copy()


sim = MembraneSim()


def evaluate(p):
    return sim.objective(p)


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
