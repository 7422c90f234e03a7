# correct: the external traction array on the tape is created without requires_grad, but it is constant load data; every intermediate on the path from the material parameters to the loss has requires_grad
import numpy as np
import warp as wp

from _fem import Mesh, elastic_forces, symplectic_euler

wp.init()

PARAMS0 = [15.0, 30.0]
FD_EPS = [1e-2, 1e-2]
STEPS, DT = 40, 0.005

mesh = Mesh()
traction = np.zeros((mesh.n, 2), dtype=np.float32)
traction[mesh.X_np[:, 0] > 0.99, 0] = 2.0
f_ext = wp.array(traction, dtype=wp.vec2)


@wp.kernel
def add_load(f_ext: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    f[i] = f[i] + f_ext[i]


@wp.kernel
def right_edge_loss(x: wp.array(dtype=wp.vec2), X: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    if X[i][0] > 0.99:
        u = x[i] - X[i]
        wp.atomic_add(loss, 0, (u[0] - 0.05) * (u[0] - 0.05) + u[1] * u[1])


def evaluate(p):
    mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.clone(mesh.X)
    v = wp.zeros(mesh.n, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros(mesh.n, dtype=wp.vec2, requires_grad=True)
            wp.launch(elastic_forces, dim=mesh.m, inputs=[x, mesh.tris, mesh.Dm_inv, mesh.area, mat], outputs=[f])
            wp.launch(add_load, dim=mesh.n, inputs=[f_ext], outputs=[f])
            x_new, v_new = wp.empty_like(x), wp.empty_like(v)
            wp.launch(symplectic_euler, dim=mesh.n, inputs=[x, v, f, mesh.inv_mass, DT], outputs=[x_new, v_new])
            x, v = x_new, v_new
        wp.launch(right_edge_loss, dim=mesh.n, inputs=[x, mesh.X], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), mat.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
