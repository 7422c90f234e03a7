"""Phase-field (Allen-Cahn) solver on a periodic grid with double-buffered state."""

import numpy as np
import warp as wp


@wp.kernel
def allen_cahn_step(
    phi: wp.array2d(dtype=float),
    interface_width: wp.array(dtype=float),
    dt: float,
    h: float,
    phi_next: wp.array2d(dtype=float),
):
    i, j = wp.tid()
    nx = phi.shape[0]
    ny = phi.shape[1]
    c = phi[i, j]
    lap = (
        phi[(i + 1) % nx, j]
        + phi[(i + nx - 1) % nx, j]
        + phi[i, (j + 1) % ny]
        + phi[i, (j + ny - 1) % ny]
        - 4.0 * c
    ) / (h * h)
    eps = interface_width[0]
    phi_next[i, j] = c + dt * (eps * eps * lap - (c * c * c - c))


class PhaseFieldSim:
    def __init__(self, resolution, dt=0.05, requires_grad=False):
        self.shape = (resolution, resolution)
        self.h = 1.0 / resolution
        self.dt = dt
        self.buffers = [
            wp.zeros(self.shape, dtype=float, requires_grad=requires_grad),
            wp.zeros(self.shape, dtype=float, requires_grad=requires_grad),
        ]
        self.front = 0

    def load(self, phi0: np.ndarray):
        self.front = 0
        self.buffers[0].assign(phi0)

    @property
    def state(self):
        return self.buffers[self.front]

    def step(self, interface_width):
        src = self.buffers[self.front]
        dst = self.buffers[1 - self.front]
        wp.launch(  # expect: TW101
            kernel=allen_cahn_step,
            dim=self.shape,
            inputs=[src, interface_width, self.dt, self.h],
            outputs=[dst],
        )
        self.front = 1 - self.front

    def run(self, interface_width, steps):
        for _ in range(steps):
            self.step(interface_width)
        return self.state
