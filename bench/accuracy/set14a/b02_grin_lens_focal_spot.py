"""Focusing of a collimated beam by a graded-index (GRIN) rod lens.

Rays enter parallel to the axis at heights in [-0.4, 0.4] mm and are traced through
a 1.4 mm rod with profile parameters (g, h). The mean-square ray height at the exit
face (the geometric spot size) is minimised over (g, h) by a lens designer; here we
compute its gradient.
"""
import numpy as np
import warp as wp

from _grin import grin_slice, spot_size

N_RAYS = 64
LENGTH = 1.4
N_SLICES = 140
PARAMS0 = np.array([1.05, 0.08])  # g (1/mm), h
FD_EPS = 1e-3


class GrinRod:
    def __init__(self, prm):
        self.prm = prm
        heights = np.linspace(-0.4, 0.4, N_RAYS)
        s0 = np.stack([heights, np.zeros(N_RAYS)], axis=1).astype(np.float32)
        self.state = wp.array(s0, dtype=wp.vec2, requires_grad=True)

    def step(self, dz):
        new = wp.empty_like(self.state)
        wp.launch(grin_slice, dim=N_RAYS, inputs=[self.state, self.prm, dz], outputs=[new])
        wp.copy(self.state, new)  # expect: overwrite

    def trace(self, length, n_slices):
        for _ in range(n_slices):
            self.step(length / n_slices)
        return self.state


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rod = GrinRod(prm)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        exit_rays = rod.trace(LENGTH, N_SLICES)
        wp.launch(spot_size, dim=N_RAYS, inputs=[exit_rays], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"rms spot {np.sqrt(L) * 1e3:.2f} um; d<r^2>/d(g, h) = {g}")
