"""Quasi-static squash of a soft cube: gradient descent on neo-Hookean energy with the top face pushed down."""

import numpy as np
import warp as wp

from _fem import cube_mesh, element_energy


@wp.kernel
def descend_free(
    x: wp.array(dtype=wp.vec3),
    grad: wp.array(dtype=wp.vec3),
    fixed: wp.array(dtype=int),
    step: float,
):
    i = wp.tid()
    if fixed[i] == 0:
        x[i] = x[i] - step * grad[i]


def main():
    pts, tets_np, rest_inv_np = cube_mesh(n=2)
    squashed = pts.copy()
    top = pts[:, 2] > 0.99
    bottom = pts[:, 2] < 0.01
    squashed[top, 2] = 0.9
    fixed_np = (top | bottom).astype(np.int32)

    x = wp.array(squashed, dtype=wp.vec3, requires_grad=True)
    tets = wp.array(tets_np, dtype=int)
    rest_inv = wp.array(rest_inv_np, dtype=wp.mat33)
    fixed = wp.array(fixed_np, dtype=int)
    deformation = wp.zeros(len(tets_np), dtype=wp.mat33, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)

    tape = wp.Tape()
    for it in range(40):
        energy.zero_()
        with tape:
            wp.launch(element_energy, dim=len(tets_np), inputs=[x, tets, rest_inv, 1.0, 4.0], outputs=[deformation, energy])
        tape.backward(energy)
        if it % 10 == 0:
            g = x.grad.numpy()[fixed_np == 0]
            print(f"iter {it:2d} energy {energy.numpy()[0]:.6f} |free grad| {np.linalg.norm(g):.5f}")
        wp.launch(descend_free, dim=len(pts), inputs=[x, x.grad, fixed, 0.002])
        tape.zero()
        tape.reset()

    print("bulge (max lateral extent):", np.round(np.abs(x.numpy()[:, :2] - 0.5).max(), 4))


if __name__ == "__main__":
    main()
