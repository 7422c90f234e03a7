"""Spread points on a patch by minimizing an all-pairs soft repulsion energy."""
import numpy as np
import warp as wp

from _b10_potentials import soft_repulsion

N = 24


@wp.kernel
def pair_energy(x: wp.array(dtype=wp.vec3), n: int, scale: float, energy: wp.array(dtype=float)):
    i = wp.tid()
    for j in range(n):
        # the self-pair contributes a constant exp(0) = 1 per point
        wp.atomic_add(energy, 0, 0.5 * soft_repulsion(x[i], x[j], scale))


@wp.kernel
def descend(x: wp.array(dtype=wp.vec3), g: wp.array(dtype=wp.vec3), lr: float):
    i = wp.tid()
    x[i] = x[i] - lr * g[i]


def main():
    rng = np.random.default_rng(1)
    x = wp.array(rng.uniform(-1, 1, size=(N, 3)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    for it in range(3):
        energy = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(pair_energy, dim=N, inputs=[x, N, 0.3], outputs=[energy])
        tape.backward(energy)
        g = x.grad.numpy()
        print(f"it {it}: energy {energy.numpy()[0]:.4f} grad finite {np.isfinite(g).all()}")
        wp.launch(descend, dim=N, inputs=[x, x.grad, 0.01])
        tape.zero()


if __name__ == "__main__":
    main()
