"""Synthetic reference data for force-field fitting: small argon-like clusters and
"ab initio" energies/forces from a Morse-like reference with a weak three-body term
(so that no LJ parameter set reproduces them exactly)."""
import numpy as np


def trimer_configs(n_conf, seed):
    rng = np.random.default_rng(seed)
    confs = []
    while len(confs) < n_conf:
        x = rng.uniform(-1.0, 1.0, size=(3, 3))
        d = np.linalg.norm(x[:, None] - x[None], axis=-1)[np.triu_indices(3, 1)]
        if d.min() > 0.95 and d.max() < 1.9:
            confs.append(x)
    return np.array(confs, dtype=np.float32)


def reference_energy(x):
    """Morse pairs (D=1.1, a=5.8, r0=1.13) plus an Axilrod-Teller-like three-body term."""
    e = 0.0
    n = x.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            r = np.linalg.norm(x[i] - x[j])
            ex = np.exp(-5.8 * (r - 1.13) / 1.13)
            e += 1.1 * (ex * ex - 2.0 * ex)
    if n == 3:
        a, b, c = x
        rab, rbc, rca = np.linalg.norm(a - b), np.linalg.norm(b - c), np.linalg.norm(c - a)
        e += 0.05 / (rab * rbc * rca) ** 3
    return e


def reference_forces(x, h=1e-4):
    x = x.astype(np.float64)
    f = np.zeros_like(x)
    for i in range(x.shape[0]):
        for k in range(3):
            xp, xm = x.copy(), x.copy()
            xp[i, k] += h
            xm[i, k] -= h
            f[i, k] = -(reference_energy(xp) - reference_energy(xm)) / (2 * h)
    return f
