# correct: Drape a small cloth strip: stretch + hinge bending energy, gradient w.r.t. vertex heights.
"""Drape a small cloth strip: stretch + hinge bending energy, gradient w.r.t. vertex heights."""
import numpy as np
import warp as wp

from _cloth_geom_ok import hinge_angle

NX = 4  # vertices along the strip; two rows
NV = 2 * NX


@wp.kernel
def bending_energy(x: wp.array(dtype=wp.vec3), hinges: wp.array(dtype=wp.vec4i), kb: float,
                   energy: wp.array(dtype=float)):
    h = wp.tid()
    e = hinges[h]
    theta = hinge_angle(x[e[0]], x[e[1]], x[e[2]], x[e[3]])
    wp.atomic_add(energy, 0, kb * theta * theta)


@wp.kernel
def lift(base: wp.array(dtype=wp.vec3), heights: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = base[i] + wp.vec3(0.0, heights[i], 0.0)


@wp.kernel
def gravity_energy(x: wp.array(dtype=wp.vec3), energy: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(energy, 0, 0.1 * x[i][1])


def build_hinges():
    # quads (i, i+1) x (row 0, row 1): vertex id = row * NX + i; diagonal from (0,i) to (1,i+1)
    hinges = []
    for i in range(NX - 1):
        a, b, c, d = i, i + 1, NX + i, NX + i + 1
        hinges.append([a, d, b, c])           # the diagonal of each quad
        if i + 1 < NX - 1:
            hinges.append([b, d, a, i + 2 + NX])  # edge between consecutive quads
    return np.array(hinges, dtype=np.int32)


BASE = np.array([[0.1 * i, 0.0, 0.1 * r] for r in range(2) for i in range(NX)], dtype=np.float32)
PARAMS0 = np.zeros(NV, dtype=np.float32)  # start flat


def evaluate(heights_np):
    heights = wp.array(heights_np, dtype=float, requires_grad=True)
    x = wp.zeros(NV, dtype=wp.vec3, requires_grad=True)
    hinges = wp.array(build_hinges(), dtype=wp.vec4i)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lift, dim=NV, inputs=[wp.array(BASE, dtype=wp.vec3), heights], outputs=[x])
        wp.launch(bending_energy, dim=len(hinges), inputs=[x, hinges, 2.0], outputs=[energy])
        wp.launch(gravity_energy, dim=NV, inputs=[x], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), heights.grad.numpy().copy()


def main():
    e, g = evaluate(PARAMS0)
    print("energy", e, "dE/dh", g)


if __name__ == "__main__":
    main()
