"""Linear-triangle FEM for a 2-D neo-Hookean membrane (explicit integration)."""

import numpy as np
import warp as wp


@wp.kernel
def neo_hookean_forces(
    x: wp.array(dtype=wp.vec2),
    tris: wp.array2d(dtype=int),
    dm_inv: wp.array(dtype=wp.mat22),
    rest_area: wp.array(dtype=float),
    material: wp.array(dtype=float),
    f: wp.array(dtype=wp.vec2),
):
    t = wp.tid()
    i = tris[t, 0]
    j = tris[t, 1]
    k = tris[t, 2]
    e1 = x[j] - x[i]
    e2 = x[k] - x[i]
    Ds = wp.mat22(e1[0], e2[0], e1[1], e2[1])
    Dm = dm_inv[t]
    F = Ds * Dm
    J = wp.determinant(F)
    FinvT = wp.transpose(wp.inverse(F))
    mu = material[0]
    lam = material[1]
    P = mu * (F - FinvT) + lam * wp.log(J) * FinvT
    H = -rest_area[t] * (P * wp.transpose(Dm))
    f1 = wp.vec2(H[0, 0], H[1, 0])
    f2 = wp.vec2(H[0, 1], H[1, 1])
    wp.atomic_add(f, j, f1)
    wp.atomic_add(f, k, f2)
    wp.atomic_sub(f, i, f1 + f2)


@wp.kernel
def integrate(
    x: wp.array(dtype=wp.vec2),
    v: wp.array(dtype=wp.vec2),
    f: wp.array(dtype=wp.vec2),
    inv_mass: wp.array(dtype=float),
    gravity: wp.vec2,
    damping: float,
    dt: float,
    x_out: wp.array(dtype=wp.vec2),
    v_out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    w = inv_mass[i]
    a = f[i] * w
    if w > 0.0:
        a = a + gravity
    v1 = (v[i] + a * dt) * (1.0 - damping * dt)
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec2), ids: wp.array(dtype=int), target: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    k = wp.tid()
    d = x[ids[k]] - target[k]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def grid_mesh(nx, ny, h):
    """Vertices of an nx-by-ny grid hanging from its top row, two triangles per cell."""
    verts = [(i * h, -j * h) for j in range(ny) for i in range(nx)]
    tris = []
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = j * nx + i
            tris.append((a, a + nx, a + 1))
            tris.append((a + 1, a + nx, a + nx + 1))
    verts = np.array(verts, dtype=np.float32)
    tris = np.array(tris, dtype=np.int32)
    dm_inv, area = [], []
    for t in tris:
        e1 = verts[t[1]] - verts[t[0]]
        e2 = verts[t[2]] - verts[t[0]]
        Dm = np.array([[e1[0], e2[0]], [e1[1], e2[1]]], dtype=np.float64)
        dm_inv.append(np.linalg.inv(Dm))
        area.append(0.5 * abs(np.linalg.det(Dm)))
    inv_mass = np.full(len(verts), 10.0, dtype=np.float32)
    inv_mass[:nx] = 0.0
    return verts, tris, np.array(dm_inv, dtype=np.float32), np.array(area, dtype=np.float32), inv_mass
