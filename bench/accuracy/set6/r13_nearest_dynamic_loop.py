"""Snap points to their nearest anchor: a dynamic loop finds the index, the distance is recomputed after (found buggy by FD)."""
import numpy as np
import warp as wp

N = 24
M = 10


@wp.kernel
def snap_energy(x: wp.array(dtype=wp.vec2), anchors: wp.array(dtype=wp.vec2), m: int, e: wp.array(dtype=float)):
    i = wp.tid()
    best = int(0)
    best_d2 = float(1.0e10)
    for j in range(m):
        d2 = wp.length_sq(x[i] - anchors[j])
        if d2 < best_d2:
            best_d2 = d2
            best = j  # expect: dynamic_loop
    r = x[i] - anchors[best]
    wp.atomic_add(e, 0, wp.dot(r, r))


def main():
    rng = np.random.default_rng(6)
    x = wp.array(rng.uniform(-1, 1, size=(N, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    anchors = wp.array(rng.uniform(-1, 1, size=(M, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(snap_energy, dim=N, inputs=[x, anchors, M], outputs=[e])
    tape.backward(e)
    print("energy", e.numpy()[0])
    print("dE/dx[:2]", x.grad.numpy()[:2], "dE/danchors[:2]", anchors.grad.numpy()[:2])
    return x.grad.numpy(), anchors.grad.numpy()


if __name__ == "__main__":
    main()
