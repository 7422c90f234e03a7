# correct: membrane substeps clear a freshly allocated force buffer inside the tape before the launch that fills it
"""Hanging neo-Hookean membrane: how do the Lame parameters change where the bottom corners end up?"""

import numpy as np
import warp as wp

from _fem2d import grid_mesh, integrate, neo_hookean_forces, tip_loss

SUBSTEPS = 40
DT = 0.01
GRAVITY = wp.vec2(0.0, -9.8)
PARAMS0 = np.array([6.0, 15.0])  # mu, lambda


class Membrane:
    def __init__(self, nx=3, ny=3, h=0.1):
        verts, tris, dm_inv, area, inv_mass = grid_mesh(nx, ny, h)
        self.n = len(verts)
        self.x0 = wp.array(verts, dtype=wp.vec2, requires_grad=True)
        self.tris = wp.array(tris, dtype=int)
        self.dm_inv = wp.array(dm_inv, dtype=wp.mat22)
        self.area = wp.array(area, dtype=float)
        self.inv_mass = wp.array(inv_mass, dtype=float)
        self.tip_ids = wp.array([self.n - nx, self.n - 1], dtype=int)
        self.tip_target = wp.array([(0.0, -0.25), (0.2, -0.25)], dtype=wp.vec2)

    def rollout(self, material, loss):
        x = self.x0
        v = wp.zeros_like(self.x0)
        tape = wp.Tape()
        with tape:
            for _ in range(SUBSTEPS):
                forces = wp.empty_like(self.x0)
                forces.zero_()
                wp.launch(
                    neo_hookean_forces,
                    dim=self.tris.shape[0],
                    inputs=[x, self.tris, self.dm_inv, self.area, material],
                    outputs=[forces],
                )
                x_next = wp.empty_like(x)
                v_next = wp.empty_like(v)
                wp.launch(
                    integrate,
                    dim=self.n,
                    inputs=[x, v, forces, self.inv_mass, GRAVITY, 0.5, DT],
                    outputs=[x_next, v_next],
                )
                x, v = x_next, v_next
            wp.launch(tip_loss, dim=2, inputs=[x, self.tip_ids, self.tip_target], outputs=[loss])
        return tape, x


def evaluate(p):
    sheet = Membrane()
    material = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape, _ = sheet.rollout(material, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), material.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"tip loss {loss:.6f}  d/d(mu, lambda) {grad}")
