# correct: a launch inside the tape block runs with record_tape=False, but it only precomputes the rest-shape matrices from fixed rest positions; the Lame mapping of the fitted Young's modulus and Poisson ratio is taped
import numpy as np
import warp as wp

from _fem import Mesh, element_stress

wp.init()

PARAMS0 = [8.0, 0.25]
FD_EPS = [1e-2, 1e-4]
P_MEAS = np.array([[1.5, 0.1], [0.1, -0.4]], dtype=np.float32)


@wp.kernel
def rest_geometry(X: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.array(dtype=wp.mat22),
                  area: wp.array(dtype=float)):
    t = wp.tid()
    Dm = wp.matrix_from_cols(X[tris[t, 1]] - X[tris[t, 0]], X[tris[t, 2]] - X[tris[t, 0]])
    Dm_inv[t] = wp.inverse(Dm)
    area[t] = 0.5 * wp.abs(wp.determinant(Dm))


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
    Dm_inv = wp.zeros(mesh.m, dtype=wp.mat22)
    area = wp.zeros(mesh.m, dtype=float)
    P = wp.zeros(mesh.m, dtype=wp.mat22, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rest_geometry, dim=mesh.m, inputs=[mesh.X, mesh.tris], outputs=[Dm_inv, area], record_tape=False)
        wp.launch(lame_from_young, dim=1, inputs=[ym], outputs=[mat])
        wp.launch(element_stress, dim=mesh.m, inputs=[x_obs, mesh.tris, Dm_inv, mat], outputs=[P])
        wp.launch(stress_misfit, dim=mesh.m, inputs=[P, area, wp.mat22(P_MEAS)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), ym.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
