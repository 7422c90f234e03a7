import numpy as np
import warp as wp

from _geometry import bend_energy, safe_len

N = 7


@wp.kernel
def strand_energy(x: wp.array(dtype=wp.vec3), k_bend: wp.float32, k_stretch: wp.float32, rest: wp.float32, energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    e = wp.float32(0.0)
    if i + 2 < N:
        e += bend_energy(x[i], x[i + 1], x[i + 2], k_bend)
    if i + 1 < N:
        l = safe_len(x[i + 1] - x[i])
        e += 0.5 * k_stretch * (l - rest) * (l - rest)
    wp.atomic_add(energy, 0, e)


def strand():
    s = np.linspace(0.0, 1.0, N)
    return np.stack([s, 0.1 * np.sin(4.0 * s), 0.05 * s * s], axis=1).astype(np.float32)


def energy_grad(x_np):
    x = wp.array(x_np, dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(strand_energy, dim=N, inputs=[x, 0.5, 10.0, 0.15], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), x.grad.numpy().copy()


def main():
    x = strand()
    for it in range(8):
        e, g = energy_grad(x)
        g[0] = 0.0
        print(f"iter {it}: energy={e:.6f} max|grad|={np.abs(g).max():.5f}")
        x = (x - 0.02 * g).astype(np.float32)


if __name__ == "__main__":
    main()
