"""A small triangulated surface patch and the per-triangle buffers used by the
UV parameterisation energies."""
import numpy as np
import warp as wp


def grid_patch(n=4, bend=0.6):
    """n x n vertices on a bent sheet; returns positions (n*n, 3) and triangles (m, 3)."""
    s = np.linspace(0.0, 1.0, n)
    X, Y = np.meshgrid(s, s)
    Z = bend * (X - 0.5) ** 2
    pos = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
    tris = []
    for r in range(n - 1):
        for c in range(n - 1):
            a, b, d, e = r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1
            tris += [(a, b, e), (a, e, d)]
    return pos, np.array(tris, dtype=np.int32)


def rest_frames(pos, tris):
    """Inverse of each triangle's 2x2 edge matrix in its own tangent frame, and its area."""
    inv, area = [], []
    for t in tris:
        p0, p1, p2 = pos[t[0]], pos[t[1]], pos[t[2]]
        e1, e2 = p1 - p0, p2 - p0
        ex = e1 / np.linalg.norm(e1)
        nrm = np.cross(e1, e2)
        ey = np.cross(nrm / np.linalg.norm(nrm), ex)
        D = np.array([[e1 @ ex, e2 @ ex], [e1 @ ey, e2 @ ey]])
        inv.append(np.linalg.inv(D))
        area.append(0.5 * np.linalg.norm(nrm))
    return np.array(inv, dtype=np.float32), np.array(area, dtype=np.float32)


class ParamMesh:
    def __init__(self, n=4):
        pos, tris = grid_patch(n)
        inv, area = rest_frames(pos, tris)
        self.n_vert = len(pos)
        self.n_tri = len(tris)
        self.tris = wp.array(tris, dtype=wp.vec3i)
        self.rest_inv = wp.array(inv, dtype=wp.mat22)
        self.area = wp.array(area, dtype=float)
        self.jac = wp.zeros(self.n_tri, dtype=wp.mat22)  # expect: requires_grad
        self.energy = wp.zeros(1, dtype=float, requires_grad=True)
