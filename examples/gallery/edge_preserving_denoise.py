"""Learn the edge threshold of Perona-Malik diffusion for denoising a 1-D step signal.

The signal lives in a buffer with one ghost cell on each side (zero Dirichlet boundary).
"""

import numpy as np
import warp as wp

N = 128
ITERS = 12


@wp.func
def conductance(du: float, edge: float):
    s = du / edge
    return 1.0 / (1.0 + s * s)


@wp.kernel
def diffuse(
    padded: wp.array(dtype=float),
    edge: wp.array(dtype=float),
    rate: float,
    out: wp.array(dtype=float),
):
    i = wp.tid()
    left = padded[i]
    mid = padded[i + 1]
    right = padded[i + 2]
    k = edge[0]
    flux_r = conductance(right - mid, k) * (right - mid)
    flux_l = conductance(mid - left, k) * (mid - left)
    out[i] = mid + rate * (flux_r - flux_l)


@wp.kernel
def clamp_range(src: wp.array(dtype=float), lo: float, hi: float, dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = wp.clamp(src[i], lo, hi)


@wp.kernel
def reconstruction_error(
    padded: wp.array(dtype=float),
    clean: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    d = padded[i + 1] - clean[i]
    wp.atomic_add(loss, 0, d * d)


def make_signals(seed=2):
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, 1.0, N)
    clean = np.where(x < 0.35, 0.2, np.where(x < 0.7, 0.9, 0.4)).astype(np.float32)
    noisy = (clean + rng.normal(0.0, 0.08, N)).astype(np.float32)
    return clean, noisy


def denoise(noisy, edge, loss, clean):
    padded = wp.zeros(N + 2, dtype=float, requires_grad=True)
    interior = padded[1 : N + 1]
    wp.copy(interior, noisy)
    smoothed = wp.zeros(N, dtype=float, requires_grad=True)
    for _ in range(ITERS):
        # `smoothed` is rewritten each iteration after `clamp_range` read it. The clamp's adjoint depends only
        # on which side of the bounds a value lies, and these values never reach them: replaying that adjoint
        # with the values it read and with the new ones gives the same gradients, so this one is information.
        wp.launch(diffuse, dim=N, inputs=[padded, edge, 0.2], outputs=[smoothed])  # note: TW101
        wp.launch(clamp_range, dim=N, inputs=[smoothed, -0.5, 1.5], outputs=[interior])  # expect: TW101
    wp.launch(reconstruction_error, dim=N, inputs=[padded, clean], outputs=[loss])
    return padded


def main():
    clean_np, noisy_np = make_signals()
    clean = wp.array(clean_np, dtype=float)
    noisy = wp.array(noisy_np, dtype=float, requires_grad=True)
    edge = wp.array([0.3], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.05
    for it in range(20):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            padded = denoise(noisy, edge, loss, clean)
        tape.backward(loss)
        g = edge.grad.numpy()[0]
        if it % 4 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} edge {edge.numpy()[0]:.4f} dL/dedge {g:.5f}")
        edge.assign(np.maximum(edge.numpy() - lr * g, 1e-3))
        tape.zero()

    print("edge threshold", edge.numpy()[0])


if __name__ == "__main__":
    main()
