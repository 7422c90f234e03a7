"""Tiny 2-D triangle FEM toolkit (St. Venant-Kirchhoff) used by the soft-body programs.

Mesh generation and rest-shape precomputation run on the host with NumPy;
the element force kernel and a couple of @wp.func helpers live here so that
several programs can share them.
"""
import numpy as np
import warp as wp


def beam_mesh(nx, ny, h):
    """Regular nx x ny node grid split into 2 (nx-1)(ny-1) triangles."""
    xs, ys = np.meshgrid(np.arange(nx) * h, np.arange(ny) * h, indexing="xy")
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float32)
    tris = []
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = j * nx + i
            b, c, d = a + 1, a + nx, a + nx + 1
            tris.append((a, b, d))
            tris.append((a, d, c))
    tris = np.array(tris, dtype=np.int32)
    dm_inv, area = [], []
    for t in tris:
        p0, p1, p2 = pts[t]
        Dm = np.stack([p1 - p0, p2 - p0], axis=1)
        dm_inv.append(np.linalg.inv(Dm))
        area.append(0.5 * abs(np.linalg.det(Dm)))
    return pts, tris, np.array(dm_inv, dtype=np.float32), np.array(area, dtype=np.float32)


class BeamMesh:
    def __init__(self, nx=5, ny=3, h=0.1, density=100.0, pin_left=True):
        pts, tris, dm_inv, area = beam_mesh(nx, ny, h)
        self.nx, self.ny = nx, ny
        self.n = len(pts)
        self.n_tri = len(tris)
        self.rest_np = pts
        mass = np.zeros(self.n, dtype=np.float32)
        for t, a in zip(tris, area):
            mass[t] += density * a / 3.0
        inv_m = 1.0 / mass
        if pin_left:
            inv_m[np.arange(ny) * nx] = 0.0
        self.inv_mass_np = inv_m.astype(np.float32)
        self.tris = wp.array(tris, dtype=wp.int32)
        self.dm_inv = wp.array(dm_inv, dtype=wp.mat22)
        self.area = wp.array(area, dtype=float)
        self.inv_mass = wp.array(self.inv_mass_np, dtype=float)

    def tip_nodes(self):
        return [j * self.nx + self.nx - 1 for j in range(self.ny)]


@wp.func
def stvk_stress(F: wp.mat22, mu: float, lam: float):
    E = 0.5 * (wp.transpose(F) * F - wp.identity(n=2, dtype=float))
    S = 2.0 * mu * E + lam * wp.trace(E) * wp.identity(n=2, dtype=float)
    return F * S


@wp.kernel
def stvk_forces(
    q: wp.array(dtype=wp.vec2),
    tris: wp.array2d(dtype=wp.int32),
    dm_inv: wp.array(dtype=wp.mat22),
    area: wp.array(dtype=float),
    material: wp.array(dtype=float),
    f: wp.array(dtype=wp.vec2),
):
    t = wp.tid()
    i = tris[t, 0]
    j = tris[t, 1]
    k = tris[t, 2]
    e1 = q[j] - q[i]
    e2 = q[k] - q[i]
    Ds = wp.mat22(e1[0], e2[0], e1[1], e2[1])
    F = Ds * dm_inv[t]
    P = stvk_stress(F, material[0], material[1])
    H = -area[t] * P * wp.transpose(dm_inv[t])
    f1 = wp.vec2(H[0, 0], H[1, 0])
    f2 = wp.vec2(H[0, 1], H[1, 1])
    wp.atomic_add(f, j, f1)
    wp.atomic_add(f, k, f2)
    wp.atomic_sub(f, i, f1 + f2)
