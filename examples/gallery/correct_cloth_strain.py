"""Static cloth patch: find the pin offset that minimises stretching energy.

Edge strains are stored for the visualiser and reused in the energy terms.
"""
import numpy as np
import warp as wp

GRID = 5


@wp.kernel
def place_vertices(
    rest_pos: wp.array(dtype=wp.vec3),
    pin_offset: wp.array(dtype=wp.vec3),
    sag: float,
    pos: wp.array(dtype=wp.vec3),
):
    v = wp.tid()
    p = rest_pos[v]
    w = p[0] * (1.0 - p[0])
    pos[v] = p + w * pin_offset[0] + wp.vec3(0.0, 0.0, -sag * w * p[1] * p[1])


@wp.kernel
def edge_strain(
    pos: wp.array(dtype=wp.vec3),
    edges: wp.array(dtype=wp.vec2i),
    rest_len: wp.array(dtype=float),
    strain: wp.array(dtype=float),
    energy: wp.array(dtype=float),
):
    e = wp.tid()
    a = edges[e][0]
    b = edges[e][1]
    strain[e] = wp.length(pos[b] - pos[a]) / rest_len[e] - 1.0
    s = strain[e]
    wp.atomic_add(energy, 0, 50.0 * s * s)


@wp.kernel
def strain_limit(strain: wp.array(dtype=float), limit: float, energy: wp.array(dtype=float)):
    e = wp.tid()
    excess = strain[e] - limit
    wp.atomic_add(energy, 0, wp.log(1.0 + wp.exp(20.0 * excess)) / 20.0)


def build_patch():
    xs, ys = np.meshgrid(np.linspace(0, 1, GRID), np.linspace(0, 1, GRID), indexing="ij")
    rest = np.stack([xs.ravel(), ys.ravel(), np.zeros(GRID * GRID)], 1).astype(np.float32)
    edges = []
    for i in range(GRID):
        for j in range(GRID):
            v = i * GRID + j
            if i + 1 < GRID:
                edges.append((v, v + GRID))
            if j + 1 < GRID:
                edges.append((v, v + 1))
    edges = np.array(edges, dtype=np.int32)
    rest_len = np.linalg.norm(rest[edges[:, 1]] - rest[edges[:, 0]], axis=1).astype(np.float32)
    return wp.array(rest, dtype=wp.vec3), wp.array(edges, dtype=wp.vec2i), wp.array(rest_len)


def stretching_energy(offset_np, patch):
    rest, edges, rest_len = patch
    pin_offset = wp.array([offset_np.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    pos = wp.zeros(rest.shape[0], dtype=wp.vec3, requires_grad=True)
    strain = wp.zeros(edges.shape[0], dtype=float, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(place_vertices, dim=rest.shape[0], inputs=[rest, pin_offset, 0.3], outputs=[pos])
        wp.launch(edge_strain, dim=edges.shape[0], inputs=[pos, edges, rest_len], outputs=[strain, energy])
        wp.launch(strain_limit, dim=edges.shape[0], inputs=[strain, 0.02], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), pin_offset.grad.numpy()[0].copy(), strain


if __name__ == "__main__":
    wp.init()
    patch = build_patch()
    offset = np.array([0.0, 0.2, 0.4])
    for it in range(6):
        e, g, strain = stretching_energy(offset, patch)
        print(f"iter {it}: energy={e:.5f} max strain={strain.numpy().max():.4f} grad={g}")
        offset = offset - 0.02 * g
