"""Host-side construction of a rectangular mass-spring cloth patch.

Shared by several cloth programs of the set: builds particle positions, the
structural / shear / bend spring lists and their rest lengths with NumPy and
uploads them as Warp arrays.
"""
import numpy as np
import warp as wp


class GridCloth:
    """A ``nx`` x ``ny`` particle sheet hanging in the x-y plane, top row pinned."""

    def __init__(self, nx=5, ny=5, spacing=0.1, mass=0.1, pin_top=True, bend=True):
        self.nx, self.ny = nx, ny
        xs, ys = np.meshgrid(np.arange(nx), np.arange(ny), indexing="xy")
        pos = np.zeros((ny * nx, 3), dtype=np.float32)
        pos[:, 0] = xs.ravel() * spacing
        pos[:, 1] = -ys.ravel() * spacing
        self.positions_np = pos
        self.n = nx * ny

        def idx(i, j):
            return j * nx + i

        pairs = []
        for j in range(ny):
            for i in range(nx):
                if i + 1 < nx:
                    pairs.append((idx(i, j), idx(i + 1, j)))
                if j + 1 < ny:
                    pairs.append((idx(i, j), idx(i, j + 1)))
                if i + 1 < nx and j + 1 < ny:
                    pairs.append((idx(i, j), idx(i + 1, j + 1)))
                    pairs.append((idx(i + 1, j), idx(i, j + 1)))
                if bend and i + 2 < nx:
                    pairs.append((idx(i, j), idx(i + 2, j)))
                if bend and j + 2 < ny:
                    pairs.append((idx(i, j), idx(i, j + 2)))
        self.springs_np = np.array(pairs, dtype=np.int32)
        d = pos[self.springs_np[:, 1]] - pos[self.springs_np[:, 0]]
        self.rest_np = np.linalg.norm(d, axis=1).astype(np.float32)
        self.n_springs = len(pairs)

        inv_m = np.full(self.n, 1.0 / mass, dtype=np.float32)
        if pin_top:
            inv_m[:nx] = 0.0
        self.inv_mass_np = inv_m

        self.springs = wp.array(self.springs_np, dtype=wp.int32)
        self.rest = wp.array(self.rest_np, dtype=float)
        self.inv_mass = wp.array(self.inv_mass_np, dtype=float)

    def corner_indices(self):
        """The two free bottom corners."""
        return [(self.ny - 1) * self.nx, self.ny * self.nx - 1]
