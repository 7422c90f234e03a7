# correct: the Neo-Hookean volumetric term uses a custom @wp.func_grad for a clamped log(J), and the hand-written adjoint (1/J above the clamp, 0 below, accumulated with +=) is exactly the derivative of the forward
import numpy as np
import warp as wp

from _fem import Mesh, deformation_gradient

wp.init()

J_MIN = 1.0e-3
MU, LAM = 2.0, 6.0

mesh = Mesh(nx=4, ny=2)
x_base = mesh.stretched(sx=1.1, sy=0.92, bend=0.08).numpy()
free = np.where(mesh.X_np[:, 0] > 0.49)[0]
PARAMS0 = (x_base[free] + 0.01 * np.sin(np.arange(2 * len(free))).reshape(-1, 2)).astype(np.float32).ravel().tolist()


@wp.func
def clamped_log(J: float):
    return wp.log(wp.max(J, J_MIN))


@wp.func_grad(clamped_log)
def adj_clamped_log(J: float, adj_ret: float):
    if J > J_MIN:
        wp.adjoint[J] += adj_ret / J


@wp.kernel
def neo_hookean_energy(x: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.array(dtype=wp.mat22),
                       area: wp.array(dtype=float), W: wp.array(dtype=float)):
    t = wp.tid()
    F = deformation_gradient(x, tris, Dm_inv[t], t)
    logJ = clamped_log(wp.determinant(F))
    psi = 0.5 * MU * (wp.ddot(F, F) - 2.0) - MU * logJ + 0.5 * LAM * logJ * logJ
    wp.atomic_add(W, 0, area[t] * psi)


def evaluate(p):
    x_np = x_base.copy()
    x_np[free] = np.asarray(p, dtype=np.float32).reshape(-1, 2)
    x = wp.array(x_np, dtype=wp.vec2, requires_grad=True)
    W = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(neo_hookean_energy, dim=mesh.m, inputs=[x, mesh.tris, mesh.Dm_inv, mesh.area], outputs=[W])
    tape.backward(W)
    return float(W.numpy()[0]), x.grad.numpy()[free].ravel().copy()


if __name__ == "__main__":
    W, g = evaluate(np.array(PARAMS0))
    print("energy", W, "forces", -g)
