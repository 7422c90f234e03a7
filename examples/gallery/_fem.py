"""Linear-tetrahedron neo-Hookean elements."""

import numpy as np
import warp as wp


@wp.kernel
def element_energy(
    x: wp.array(dtype=wp.vec3),
    tets: wp.array2d(dtype=int),
    rest_inv: wp.array(dtype=wp.mat33),
    mu: float,
    lam: float,
    deformation: wp.array(dtype=wp.mat33),
    energy: wp.array(dtype=float),
):
    e = wp.tid()
    x0 = x[tets[e, 0]]
    ds = wp.matrix_from_cols(x[tets[e, 1]] - x0, x[tets[e, 2]] - x0, x[tets[e, 3]] - x0)
    deformation[e] = ds * rest_inv[e]

    F = deformation[e]
    J = wp.determinant(F)
    ic = wp.trace(wp.transpose(F) * F)
    logJ = wp.log(J)
    psi = 0.5 * mu * (ic - 3.0) - mu * logJ + 0.5 * lam * logJ * logJ
    wp.atomic_add(energy, 0, psi)


def cube_mesh(n=2, size=1.0):
    pts = []
    for i in range(n + 1):
        for j in range(n + 1):
            for k in range(n + 1):
                pts.append([i * size / n, j * size / n, k * size / n])
    idx = lambda i, j, k: (i * (n + 1) + j) * (n + 1) + k
    tets = []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c = [idx(i + a, j + b, k + d) for a in (0, 1) for b in (0, 1) for d in (0, 1)]
                for t in ([0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]):
                    tets.append([c[t[0]], c[t[1]], c[t[2]], c[t[3]]])
    pts = np.array(pts, dtype=np.float32)
    tets = np.array(tets, dtype=np.int32)
    rest_inv = []
    for t in tets:
        Dm = np.stack([pts[t[1]] - pts[t[0]], pts[t[2]] - pts[t[0]], pts[t[3]] - pts[t[0]]], axis=1)
        rest_inv.append(np.linalg.inv(Dm))
    return pts, tets, np.array(rest_inv, dtype=np.float32)
