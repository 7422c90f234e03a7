"""Kremer-Grest style bead-spring chain: FENE bonds + WCA repulsion (reduced units)."""
import numpy as np
import warp as wp

WCA_CUT2 = 2.0 ** (1.0 / 3.0)  # (2^(1/6) sigma)^2 with sigma = 1


@wp.func
def wca_force(d: wp.vec3):
    r2 = wp.dot(d, d)
    f = wp.vec3()
    if r2 < WCA_CUT2:
        s6 = 1.0 / (r2 * r2 * r2)
        f = d * (24.0 * (2.0 * s6 * s6 - s6) / r2)
    return f


@wp.func
def fene_force(d: wp.vec3, k: float, R0: float):
    # force on the first bead, d = x_i - x_j
    q = wp.dot(d, d) / (R0 * R0)
    return -k * d / (1.0 - q)


@wp.kernel
def chain_forces(x: wp.array(dtype=wp.vec3), fene: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    n = x.shape[0]
    fi = wp.vec3()
    if i > 0:
        fi += fene_force(x[i] - x[i - 1], fene[0], fene[1])
    if i < n - 1:
        fi += fene_force(x[i] - x[i + 1], fene[0], fene[1])
    for j in range(n):
        if j < i - 1 or j > i + 1:
            fi += wca_force(x[i] - x[j])
    f[i] = fi


@wp.kernel
def brownian_step(x: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), xi: wp.array(dtype=wp.vec3),
                  mu_dt: float, noise_amp: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + mu_dt * f[i] + noise_amp * xi[i]


@wp.kernel
def gyration(x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    # Rg^2 = 1/(2 n^2) sum_ij |x_i - x_j|^2 (no centre of mass needed)
    i, j = wp.tid()
    d = x[i] - x[j]
    n = float(x.shape[0])
    wp.atomic_add(out, 0, wp.dot(d, d) / (2.0 * n * n))


def random_walk_chain(n, bond, seed):
    rng = np.random.default_rng(seed)
    x = np.zeros((n, 3))
    for i in range(1, n):
        while True:
            u = rng.standard_normal(3)
            c = x[i - 1] + bond * u / np.linalg.norm(u)
            if i < 2 or np.min(np.linalg.norm(x[: i - 1] - c, axis=1)) > 1.0:
                x[i] = c
                break
    return x.astype(np.float32)
