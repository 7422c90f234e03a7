import numpy as np
import warp as wp

from _fem import Mesh, element_stress

wp.init()

PARAMS0 = [1.5, 4.0]
P_MEAS = np.array([[0.9, 0.1], [0.05, -0.3]], dtype=np.float32)


@wp.kernel
def stress_misfit(P: wp.array(dtype=wp.mat22), area: wp.array(dtype=float), target: wp.mat22,
                  loss: wp.array(dtype=float)):
    t = wp.tid()
    R = P[t] - target
    wp.atomic_add(loss, 0, area[t] * wp.ddot(R, R))


@wp.kernel
def von_mises(P: wp.array(dtype=wp.mat22), vm: wp.array(dtype=float)):
    t = wp.tid()
    s = P[t]
    vm[t] = wp.sqrt(s[0, 0] * s[0, 0] - s[0, 0] * s[1, 1] + s[1, 1] * s[1, 1] + 3.0 * s[0, 1] * s[1, 0])


class StressFit:
    def __init__(self):
        self.mesh = Mesh(nx=5, ny=2)
        self.x = self.mesh.stretched(sx=1.25, sy=0.85)
        self.P = wp.zeros(self.mesh.m, dtype=wp.mat22, requires_grad=True, retain_grad=True)
        self.vm = wp.zeros(self.mesh.m, dtype=float)

    def stresses(self, mat):
        m = self.mesh
        wp.launch(element_stress, dim=m.m, inputs=[self.x, m.tris, m.Dm_inv, mat], outputs=[self.P])
        return self.P

    def peak_stress(self, mat):
        P = self.stresses(mat)  # expect: retain_grad
        wp.launch(von_mises, dim=self.mesh.m, inputs=[P], outputs=[self.vm])
        return float(np.max(self.vm.numpy()))

    def loss(self, mat):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        P = self.stresses(mat)
        peak = self.peak_stress(mat)
        wp.launch(stress_misfit, dim=self.mesh.m, inputs=[P, self.mesh.area, wp.mat22(P_MEAS)], outputs=[loss])
        return loss, peak


fit = StressFit()


def evaluate(p):
    mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        loss, peak = fit.loss(mat)
    tape.backward(loss)
    g = mat.grad.numpy().copy()
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
