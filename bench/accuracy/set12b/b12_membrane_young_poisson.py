import numpy as np
import warp as wp

from _fem import Mesh, element_stress

wp.init()

PARAMS0 = [10.0, 0.3]
FD_EPS = [1e-2, 1e-4]
P_MEAS = np.array([[1.8, 0.2], [0.1, -0.6]], dtype=np.float32)


@wp.kernel
def lame_from_young(ym: wp.array(dtype=float), mat: wp.array(dtype=float)):
    E = ym[0]
    nu = ym[1]
    mat[0] = E / (2.0 * (1.0 + nu))
    mat[1] = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))


@wp.kernel
def stress_misfit(P: wp.array(dtype=wp.mat22), area: wp.array(dtype=float), target: wp.mat22,
                  loss: wp.array(dtype=float)):
    t = wp.tid()
    R = P[t] - target
    wp.atomic_add(loss, 0, area[t] * wp.ddot(R, R))


mesh = Mesh(nx=4, ny=3)
x_obs = mesh.stretched(sx=1.1, sy=0.97, bend=0.03)


def evaluate(p):
    ym = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    mat = wp.zeros(2, dtype=float, requires_grad=True)
    P = wp.zeros(mesh.m, dtype=wp.mat22, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lame_from_young, dim=1, inputs=[ym], outputs=[mat], record_tape=False)  # expect: truncation
        wp.launch(element_stress, dim=mesh.m, inputs=[x_obs, mesh.tris, mesh.Dm_inv, mat], outputs=[P])
        wp.launch(stress_misfit, dim=mesh.m, inputs=[P, mesh.area, wp.mat22(P_MEAS)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), ym.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
