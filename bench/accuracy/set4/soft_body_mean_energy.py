import numpy as np
import warp as wp

N = 8


@wp.func
def spring_energy(a: wp.vec2, b: wp.vec2, rest: wp.float32, k: wp.float32):
    l = wp.length(a - b)
    return 0.5 * k * (l - rest) * (l - rest)


@wp.kernel
def ring_energy(pos: wp.array(dtype=wp.vec2), k: wp.array(dtype=wp.float32), rest: wp.float32, energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    n = pos.shape[0]
    j = (i + 1) % n
    energy[i] = spring_energy(pos[i], pos[j], rest, k[i])


def ring_positions(radius_scale):
    ang = np.linspace(0.0, 2.0 * np.pi, N, endpoint=False)
    r = radius_scale * (1.0 + 0.1 * np.cos(3 * ang))
    return np.stack([r * np.cos(ang), r * np.sin(ang)], axis=1).astype(np.float32)


def mean_energy_grad(pos_np, k_np):
    """Mean spring energy over the ring and its gradient w.r.t. node positions."""
    pos = wp.array(pos_np, dtype=wp.vec2, requires_grad=True)
    k = wp.array(k_np, dtype=wp.float32, requires_grad=True)
    energy = wp.zeros(N, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ring_energy, dim=N, inputs=[pos, k, 0.6], outputs=[energy])
    mean = float(energy.numpy().mean())
    tape.backward(grads={energy: wp.ones(N, dtype=wp.float32)})  # expect: seeding
    return mean, pos.grad.numpy().copy(), k.grad.numpy().copy()


def main():
    pos = ring_positions(1.0)
    k = np.linspace(1.0, 2.0, N).astype(np.float32)
    for it in range(6):
        e, gpos, gk = mean_energy_grad(pos, k)
        print(f"iter {it}: mean energy={e:.6f} |grad|={np.abs(gpos).max():.6f}")
        pos = (pos - 0.2 * gpos).astype(np.float32)


if __name__ == "__main__":
    main()
