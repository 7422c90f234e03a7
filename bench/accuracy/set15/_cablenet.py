"""Saddle-shaped cable-net roof on a 11 x 11 grid (force density method, vertical coordinate only).

Boundary nodes sit on a hyperbolic-paraboloid edge frame; interior nodes carry
the roofing load. Warp cables run along x with force density q_x, fill cables
along y with q_y (kN/m per m of length -> kN/m^2 after the unit grid spacing).
"""
import numpy as np
import warp as wp

N_GRID = 11
SPAN = 20.0
RISE = 3.0
LOAD = 0.9  # kN per node


def frame_heights():
    u = np.linspace(-1.0, 1.0, N_GRID)
    x, y = np.meshgrid(u, u, indexing="ij")
    z = RISE * (x * x - y * y)
    fixed = np.zeros((N_GRID, N_GRID), dtype=np.float32)
    fixed[0, :] = fixed[-1, :] = fixed[:, 0] = fixed[:, -1] = 1.0
    return (z * fixed).astype(np.float32), fixed


def equilibrium_numpy(q):
    """Direct float64 solve of the force-density equations for the interior heights."""
    z0, fixed = frame_heights()
    idx = -np.ones((N_GRID, N_GRID), dtype=int)
    free = np.argwhere(fixed == 0)
    for k, (i, j) in enumerate(free):
        idx[i, j] = k
    a = np.zeros((len(free), len(free)))
    b = np.full(len(free), -LOAD, dtype=np.float64)
    for k, (i, j) in enumerate(free):
        for di, dj, qq in ((1, 0, q[0]), (-1, 0, q[0]), (0, 1, q[1]), (0, -1, q[1])):
            a[k, k] += qq
            n = idx[i + di, j + dj]
            if n >= 0:
                a[k, n] -= qq
            else:
                b[k] += qq * z0[i + di, j + dj]
    z = z0.astype(np.float64).copy()
    z[fixed == 0] = np.linalg.solve(a, b)
    return z


@wp.kernel
def jacobi_sweep(z: wp.array2d(dtype=float), fixed: wp.array2d(dtype=float), q: wp.array(dtype=float),
                 load: float, z_new: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if fixed[i, j] > 0.0:
        z_new[i, j] = z[i, j]
    else:
        s = q[0] * (z[i + 1, j] + z[i - 1, j]) + q[1] * (z[i, j + 1] + z[i, j - 1])
        z_new[i, j] = (s - load) / (2.0 * q[0] + 2.0 * q[1])


@wp.kernel
def shape_misfit(z: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = z[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


def target_shape():
    """Architect's target: the roof under the design force densities (2.0, 1.4)."""
    return equilibrium_numpy((2.0, 1.4)).astype(np.float32)
