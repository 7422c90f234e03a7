"""13-particle charged-colloid clusters and reference energies for the screened pair-potential fits (lengths in Bjerrum lengths)."""
import numpy as np

N_ATOMS = 13
N_CONF = 16


def icosahedron(scale):
    phi = (1.0 + 5.0 ** 0.5) / 2.0
    v = []
    for a in (-1.0, 1.0):
        for b in (-phi, phi):
            v += [(0.0, a, b), (a, b, 0.0), (b, 0.0, a)]
    v = np.array(v) / np.linalg.norm(v[0]) * scale
    return np.vstack([np.zeros(3), v])


def configurations(seed=3):
    rng = np.random.default_rng(seed)
    confs = []
    for c in range(N_CONF):
        x = icosahedron(3.7 + 0.15 * c / N_CONF) + 0.25 * rng.standard_normal((N_ATOMS, 3))
        x[0] *= 0.0
        confs.append(x)
    return np.array(confs, dtype=np.float32)


def reference_energies(x, z=1.15, kappa=0.42, r_on=4.2, r_cut=8.8):
    e = np.zeros(len(x))
    for c in range(len(x)):
        for i in range(N_ATOMS):
            for j in range(i + 1, N_ATOMS):
                r = np.linalg.norm(x[c, i] - x[c, j])
                v = z * z * np.exp(-kappa * r) / r
                if r >= r_on:
                    t = np.clip((r - r_on) / (r_cut - r_on), 0, 1)
                    v *= 1 - t ** 3 * (10 - 15 * t + 6 * t * t)
                e[c] += v
    return e.astype(np.float32)
