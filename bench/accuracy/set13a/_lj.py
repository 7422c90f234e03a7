"""Lennard-Jones building blocks shared by several programs (reduced units).

Parameters travel in a small array ``ff = [epsilon, sigma]`` so that they can
carry a gradient.
"""
import numpy as np
import warp as wp


@wp.func
def min_image(d: wp.vec3, box: float):
    # nearest periodic image of a separation vector in a cubic box
    return wp.vec3(
        d[0] - box * wp.round(d[0] / box),
        d[1] - box * wp.round(d[1] / box),
        d[2] - box * wp.round(d[2] / box),
    )


@wp.func
def lj_energy(r2: float, eps: float, sigma: float):
    s2 = sigma * sigma / r2
    s6 = s2 * s2 * s2
    return 4.0 * eps * (s6 * s6 - s6)


@wp.func
def lj_force(d: wp.vec3, eps: float, sigma: float):
    # force on the first atom of the pair, d = x_i - x_j
    r2 = wp.dot(d, d)
    s2 = sigma * sigma / r2
    s6 = s2 * s2 * s2
    return d * (24.0 * eps * (2.0 * s6 * s6 - s6) / r2)


@wp.kernel
def lj_forces_open(x: wp.array(dtype=wp.vec3), ff: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    """All-pairs LJ forces of an isolated cluster."""
    i = wp.tid()
    fi = wp.vec3()
    for j in range(x.shape[0]):
        if j != i:
            fi += lj_force(x[i] - x[j], ff[0], ff[1])
    f[i] = fi


@wp.kernel
def lj_forces_pbc(
    x: wp.array(dtype=wp.vec3), ff: wp.array(dtype=float), box: float, rc: float, f: wp.array(dtype=wp.vec3)
):
    """All-pairs LJ forces with minimum image and a plain cutoff."""
    i = wp.tid()
    fi = wp.vec3()
    for j in range(x.shape[0]):
        if j != i:
            d = min_image(x[i] - x[j], box)
            if wp.dot(d, d) < rc * rc:
                fi += lj_force(d, ff[0], ff[1])
    f[i] = fi


@wp.kernel
def radius_of_gyration_sq(x: wp.array(dtype=wp.vec3), com: wp.vec3, rg2: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - com
    wp.atomic_add(rg2, 0, wp.dot(d, d) / float(x.shape[0]))


def cube_cluster(n_side, spacing, jitter, seed):
    """Atoms on a simple-cubic lattice, slightly jittered (deterministic)."""
    rng = np.random.default_rng(seed)
    g = np.arange(n_side) * spacing
    pts = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    pts = pts - pts.mean(axis=0)
    return (pts + jitter * rng.standard_normal(pts.shape)).astype(np.float32)
