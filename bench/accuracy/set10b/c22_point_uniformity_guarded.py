# correct: pairwise distances include each point with itself (zero vectors), but they go through wp.length (guarded at zero), and the softplus uses the double-where guard, so no NaN reaches the gradient
"""Blue-noise point relaxation: optimise 2-D sample positions to be spread
out (Laplacian-kernel repulsion over all pairs, self-pairs included) while a
softplus barrier keeps them inside the unit disk.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 24
BW = 0.3
BARRIER = 40.0


@wp.func
def softplus(z: float):
    return wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(wp.min(z, 20.0))))


@wp.kernel
def repulsion(x: wp.array(dtype=wp.vec2), energy: wp.array(dtype=float)):
    i, j = wp.tid()
    r = wp.length(x[i] - x[j])
    wp.atomic_add(energy, 0, wp.exp(-r / BW) / float(N * N))


@wp.kernel
def disk_barrier(x: wp.array(dtype=wp.vec2), energy: wp.array(dtype=float)):
    i = wp.tid()
    z = BARRIER * (wp.length_sq(x[i]) - 1.0)
    wp.atomic_add(energy, 0, softplus(z) / (BARRIER * float(N)))


PARAMS0 = np.random.default_rng(0).uniform(-1.2, 1.2, 2 * N)  # a few start outside the disk
FD_EPS = 1e-3


def evaluate(p):
    x = wp.array(np.asarray(p, np.float32).reshape(N, 2), dtype=wp.vec2, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(repulsion, dim=(N, N), inputs=[x], outputs=[energy])
        wp.launch(disk_barrier, dim=N, inputs=[x], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), x.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        e, g = evaluate(p)
        p -= 0.5 * g
        if it % 50 == 0:
            print(f"iter {it:3d} energy {e:.5f} max radius {np.linalg.norm(p.reshape(N, 2), axis=1).max():.3f}")
