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


def evaluate(p, creep_rate=0.03):
    mesh = Mesh()
    x = mesh.stretched()
    mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    P = wp.zeros(mesh.m, dtype=wp.mat22, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(element_stress, dim=mesh.m, inputs=[x, mesh.tris, mesh.Dm_inv, mat], outputs=[P])
        wp.launch(stress_misfit, dim=mesh.m, inputs=[P, mesh.area, wp.mat22(P_MEAS)], outputs=[loss])

    # viscous creep of the reference configuration for the next load step
    Dm_inv = mesh.Dm_inv.numpy()  # expect: untaped_write
    F_np = np.einsum("ij,tjk->tik", np.eye(2) + creep_rate * np.diag([1.0, -0.5]), Dm_inv)
    Dm_inv[:] = F_np

    tape.backward(loss)
    mesh.Dm_inv = wp.array(Dm_inv, dtype=wp.mat22)
    return float(loss.numpy()[0]), mat.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
