"""Linear-triangle Neo-Hookean membrane (plane strain) shared by the FEM programs."""
import numpy as np
import warp as wp


@wp.func
def nh_stress(F: wp.mat22, mu: float, lam: float):
    J = wp.determinant(F)
    FinvT = wp.transpose(wp.inverse(F))
    return mu * (F - FinvT) + lam * wp.log(J) * FinvT


@wp.func
def deformation_gradient(x: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.mat22, t: int):
    i = tris[t, 0]
    j = tris[t, 1]
    k = tris[t, 2]
    Ds = wp.matrix_from_cols(x[j] - x[i], x[k] - x[i])
    return Ds * Dm_inv


@wp.kernel
def element_stress(x: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.array(dtype=wp.mat22),
                   mat: wp.array(dtype=float), P_out: wp.array(dtype=wp.mat22)):
    t = wp.tid()
    F = deformation_gradient(x, tris, Dm_inv[t], t)
    P_out[t] = nh_stress(F, mat[0], mat[1])


@wp.kernel
def elastic_forces(x: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=int), Dm_inv: wp.array(dtype=wp.mat22),
                   area: wp.array(dtype=float), mat: wp.array(dtype=float), f: wp.array(dtype=wp.vec2)):
    t = wp.tid()
    F = deformation_gradient(x, tris, Dm_inv[t], t)
    H = -area[t] * nh_stress(F, mat[0], mat[1]) * wp.transpose(Dm_inv[t])
    f1 = wp.vec2(H[0, 0], H[1, 0])
    f2 = wp.vec2(H[0, 1], H[1, 1])
    wp.atomic_add(f, tris[t, 1], f1)
    wp.atomic_add(f, tris[t, 2], f2)
    wp.atomic_sub(f, tris[t, 0], f1 + f2)


@wp.kernel
def symplectic_euler(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
                     inv_mass: wp.array(dtype=float), dt: float,
                     x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v1 = (v[i] + dt * (f[i] * inv_mass[i] + wp.vec2(0.0, -9.8))) * wp.where(inv_mass[i] > 0.0, 1.0, 0.0)
    x_out[i] = x[i] + dt * v1
    v_out[i] = v1


class Mesh:
    """nx x ny quads of size h, two triangles each; the left column is clamped."""

    def __init__(self, nx=4, ny=2, h=0.25, density=1.0):
        ys, xs = np.mgrid[0 : ny + 1, 0 : nx + 1]
        X = np.stack([xs.ravel() * h, ys.ravel() * h], 1).astype(np.float32)
        tris = []
        for j in range(ny):
            for i in range(nx):
                a = j * (nx + 1) + i
                tris += [[a, a + 1, a + nx + 2], [a, a + nx + 2, a + nx + 1]]
        tris = np.array(tris, dtype=np.int32)
        Dm = np.stack([X[tris[:, 1]] - X[tris[:, 0]], X[tris[:, 2]] - X[tris[:, 0]]], 2)
        self.n, self.m = len(X), len(tris)
        self.X_np = X
        self.X = wp.array(X, dtype=wp.vec2, requires_grad=True)
        self.tris = wp.array(tris, dtype=int)
        self.Dm_inv = wp.array(np.linalg.inv(Dm).astype(np.float32), dtype=wp.mat22)
        self.area = wp.array((0.5 * np.abs(np.linalg.det(Dm))).astype(np.float32), dtype=float)
        inv = np.full(self.n, 1.0 / (density * h * h), dtype=np.float32)
        inv[xs.ravel() == 0] = 0.0
        self.inv_mass = wp.array(inv, dtype=float)

    def stretched(self, sx=1.2, sy=0.9, bend=0.05):
        X = self.X_np
        x = np.stack([sx * X[:, 0], sy * X[:, 1] - bend * X[:, 0] ** 2], 1).astype(np.float32)
        return wp.array(x, dtype=wp.vec2, requires_grad=True)
