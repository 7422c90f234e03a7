import numpy as np
import warp as wp

from _fem import Mesh, deformation_gradient
from _svk import svk_energy_density

wp.init()

YOUNG, NU = 5.0, 0.3

mesh = Mesh(nx=4, ny=2)
x_base = mesh.stretched(sx=1.05, sy=0.98, bend=0.12).numpy()
free = np.where(mesh.X_np[:, 0] > 0.99)[0]
PARAMS0 = (x_base[free] + np.array([0.03, -0.02], dtype=np.float32)).ravel().tolist()


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
