"""Relax a small atomic cluster under a Morse pair potential, taking forces from the tape."""

import numpy as np
import warp as wp

from _geometry import pair_distance, pair_weight

NUM_ATOMS = 12


@wp.kernel
def morse_energy(
    positions: wp.array(dtype=wp.vec3),
    well_depth: float,
    width: float,
    rest_length: float,
    energy: wp.array(dtype=float),
):
    i, j = wp.tid()
    r = pair_distance(positions[i], positions[j])
    w = pair_weight(i, j)
    x = 1.0 - wp.exp(-width * (r - rest_length))
    wp.atomic_add(energy, 0, 0.5 * w * well_depth * (x * x - 1.0))


@wp.kernel
def descend(
    positions: wp.array(dtype=wp.vec3),
    gradient: wp.array(dtype=wp.vec3),
    step: float,
    max_move: float,
):
    i = wp.tid()
    move = -step * gradient[i]
    n = wp.length(move)
    if n > max_move:
        move = move * (max_move / n)
    positions[i] = positions[i] + move


def initial_cluster():
    rng = np.random.default_rng(3)
    pts = rng.uniform(-1.2, 1.2, (NUM_ATOMS, 3))
    return (pts - pts.mean(axis=0)).astype(np.float32)


def main():
    positions = wp.array(initial_cluster(), dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for it in range(60):
        energy.zero_()
        with tape:
            wp.launch(  # note: TW407
                morse_energy,
                dim=(NUM_ATOMS, NUM_ATOMS),
                inputs=[positions, 1.0, 1.5, 1.0],
                outputs=[energy],
            )
        tape.backward(energy)
        if it % 10 == 0:
            fmax = np.abs(positions.grad.numpy()).max()
            print(f"iter {it:2d} energy {energy.numpy()[0]:.5f} max|force| {fmax:.4f}")
        wp.launch(descend, dim=NUM_ATOMS, inputs=[positions, positions.grad, 0.05, 0.1])
        tape.zero()
        tape.reset()

    print("final energy", energy.numpy()[0])
    print("centroid", positions.numpy().mean(axis=0))


if __name__ == "__main__":
    main()
