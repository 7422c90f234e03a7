# tapewatch-test: --check-launches
"""Fit the amplitude and falloff of a procedural terrain patch to a scanned heightfield."""

import numpy as np
import warp as wp

GRID = 24
SPACING = 0.25


@wp.kernel
def build_terrain(
    amplitude: wp.array(dtype=float),
    falloff: wp.array(dtype=float),
    spacing: float,
    verts: wp.array2d(dtype=wp.vec3),
):
    i, j = wp.tid()
    p = wp.vec3(float(i) * spacing, float(j) * spacing, 0.0)
    r2 = (p[0] - 3.0) * (p[0] - 3.0) + (p[1] - 3.0) * (p[1] - 3.0)
    p[2] = amplitude[0] * wp.sin(0.7 * p[0]) * wp.cos(0.4 * p[1])
    p[2] = p[2] * wp.exp(-falloff[0] * r2)  # expect: TW302  expect: TW404
    verts[i, j] = p


@wp.kernel
def height_misfit(
    verts: wp.array2d(dtype=wp.vec3),
    scan: wp.array2d(dtype=float),
    loss: wp.array(dtype=float),
):
    i, j = wp.tid()
    dz = verts[i, j][2] - scan[i, j]
    wp.atomic_add(loss, 0, dz * dz)


def synthetic_scan():
    xs = np.arange(GRID) * SPACING
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    r2 = (X - 3.0) ** 2 + (Y - 3.0) ** 2
    return (1.8 * np.sin(0.7 * X) * np.cos(0.4 * Y) * np.exp(-0.12 * r2)).astype(np.float32)


def main():
    scan = wp.array(synthetic_scan(), dtype=float)
    amplitude = wp.array([1.0], dtype=float, requires_grad=True)
    falloff = wp.array([0.05], dtype=float, requires_grad=True)
    verts = wp.zeros((GRID, GRID), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 2e-3
    tape = wp.Tape()
    for it in range(30):
        loss.zero_()
        with tape:
            wp.launch(build_terrain, dim=(GRID, GRID), inputs=[amplitude, falloff, SPACING], outputs=[verts])
            wp.launch(height_misfit, dim=(GRID, GRID), inputs=[verts, scan], outputs=[loss])
        tape.backward(loss)

        a, f = amplitude.numpy(), falloff.numpy()
        ga, gf = amplitude.grad.numpy(), falloff.grad.numpy()
        if it % 5 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} amp {a[0]:.4f} falloff {f[0]:.4f} grad ({ga[0]:.4f}, {gf[0]:.4f})")
        amplitude.assign(a - lr * ga)
        falloff.assign(np.maximum(f - 0.1 * lr * gf, 0.0))
        tape.zero()
        tape.reset()

    print("final amplitude", amplitude.numpy()[0], "falloff", falloff.numpy()[0])


if __name__ == "__main__":
    main()
