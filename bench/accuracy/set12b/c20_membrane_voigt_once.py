# correct: the Voigt strain vector is filled component by component, but each component of the fresh vector is assigned exactly once (engineering shear included)
import numpy as np
import warp as wp

from _fem import Mesh, deformation_gradient

wp.init()

YOUNG, NU = 4.0, 0.35


@wp.func
def svk_energy_density(F: wp.mat22, young: float, nu: float):
    E = 0.5 * (wp.transpose(F) * F - wp.identity(n=2, dtype=float))
    eps = wp.vec3()
    eps[0] = E[0, 0]
    eps[1] = E[1, 1]
    eps[2] = 2.0 * E[0, 1]
    c = young / (1.0 - nu * nu)
    C = c * wp.mat33(1.0, nu, 0.0, nu, 1.0, 0.0, 0.0, 0.0, 0.5 * (1.0 - nu))
    return 0.5 * wp.dot(eps, C * eps)

mesh = Mesh(nx=4, ny=2)
x_base = mesh.stretched(sx=1.05, sy=0.98, bend=0.12).numpy()
free = np.where(mesh.X_np[:, 0] > 0.99)[0]
PARAMS0 = (x_base[free] + np.array([-0.02, 0.04], dtype=np.float32)).ravel().tolist()


@wp.kernel
def strain_energy(x: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.array(dtype=wp.mat22),
                  area: wp.array(dtype=float), young: float, nu: float, W: wp.array(dtype=float)):
    t = wp.tid()
    F = deformation_gradient(x, tris, Dm_inv[t], t)
    wp.atomic_add(W, 0, area[t] * svk_energy_density(F, young, nu))


def evaluate(p):
    """Elastic energy of the strip for given right-edge node positions, and the nodal forces (-grad)."""
    x_np = x_base.copy()
    x_np[free] = np.asarray(p, dtype=np.float32).reshape(-1, 2)
    x = wp.array(x_np, dtype=wp.vec2, requires_grad=True)
    W = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(strain_energy, dim=mesh.m, inputs=[x, mesh.tris, mesh.Dm_inv, mesh.area, YOUNG, NU], outputs=[W])
    tape.backward(W)
    return float(W.numpy()[0]), x.grad.numpy()[free].ravel().copy()


if __name__ == "__main__":
    W, g = evaluate(np.array(PARAMS0))
    print("energy", W, "forces", -g)
