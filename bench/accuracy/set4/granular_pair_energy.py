# correct: all-pairs energy including i == j, distance via wp.length (adjoint guarded at zero)
import numpy as np
import warp as wp

N = 6


@wp.kernel
def soft_pairs(pos: wp.array(dtype=wp.vec3), sigma: wp.array(dtype=wp.float32), energy: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    r = wp.length(pos[i] - pos[j])
    wp.atomic_add(energy, 0, sigma[0] / (sigma[0] + r * r * r))


@wp.kernel
def gravity_energy(pos: wp.array(dtype=wp.vec3), energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(energy, 0, 9.8 * pos[i][1] + 0.5 * wp.dot(pos[i], pos[i]))


def grains():
    rng = np.random.default_rng(9)
    return rng.uniform(-0.5, 0.5, size=(N, 3)).astype(np.float32)


def energy_grad(pos_np, sigma=0.2):
    pos = wp.array(pos_np, dtype=wp.vec3, requires_grad=True)
    sig = wp.array([sigma], dtype=wp.float32, requires_grad=True)
    energy = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(soft_pairs, dim=(N, N), inputs=[pos, sig], outputs=[energy])
        wp.launch(gravity_energy, dim=N, inputs=[pos], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), pos.grad.numpy().copy()


def main():
    pos = grains()
    for it in range(6):
        e, g = energy_grad(pos)
        print(f"iter {it}: energy={e:.5f} max|grad|={np.abs(g).max():.5f}")
        pos = (pos - 0.05 * g).astype(np.float32)


if __name__ == "__main__":
    main()
