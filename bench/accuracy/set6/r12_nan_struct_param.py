"""Relax a cable's node positions (held in a @wp.struct state) under edge-spring energy."""
import numpy as np
import warp as wp

N = 8


@wp.struct
class CableState:
    x: wp.array(dtype=wp.vec3)
    rest: float
    stiffness: float


@wp.kernel
def edge_energy(s: CableState, e: wp.array(dtype=float)):
    i = wp.tid()
    d = s.x[i + 1] - s.x[i]
    length = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    stretch = length - s.rest
    wp.atomic_add(e, 0, 0.5 * s.stiffness * stretch * stretch)


@wp.kernel
def descend(x: wp.array(dtype=wp.vec3), g: wp.array(dtype=wp.vec3), lr: float):
    i = wp.tid()
    x[i] = x[i] - lr * g[i]


def main():
    pts = np.zeros((N + 1, 3), dtype=np.float32)
    pts[:, 0] = np.linspace(0.0, 1.0, N + 1)
    pts[4] = pts[3]  # two coincident nodes (a collapsed edge)
    s = CableState()
    s.x = wp.array(pts, dtype=wp.vec3, requires_grad=True)
    s.rest, s.stiffness = 0.125, 10.0
    for it in range(2):
        e = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(edge_energy, dim=N, inputs=[s], outputs=[e])
        tape.backward(e)
        g = s.x.grad.numpy()
        print("it", it, "energy", e.numpy()[0], "grad finite", np.isfinite(g).all())
        wp.launch(descend, dim=N + 1, inputs=[s.x, s.x.grad, 0.05])
        tape.zero()


if __name__ == "__main__":
    main()
