"""United-atom butane (C1-C2-C3-C4): topology, bonded energy functions and a
synthetic set of distorted reference conformations with energies from an
anharmonic 'reference' force field."""
import numpy as np
import warp as wp


@wp.struct
class Topology:
    bonds: wp.array2d(dtype=int)  # (n_bonds, 2)
    angles: wp.array2d(dtype=int)  # (n_angles, 3)
    dihedrals: wp.array2d(dtype=int)  # (n_dihedrals, 4)


BONDS = np.array([[0, 1], [1, 2], [2, 3]], dtype=np.int32)
ANGLES = np.array([[0, 1, 2], [1, 2, 3]], dtype=np.int32)
DIHEDRALS = np.array([[0, 1, 2, 3]], dtype=np.int32)


def make_topology():
    t = Topology()
    t.bonds = wp.array(BONDS, dtype=int)
    t.angles = wp.array(ANGLES, dtype=int)
    t.dihedrals = wp.array(DIHEDRALS, dtype=int)
    return t


@wp.func
def bond_angle(a: wp.vec3, b: wp.vec3, c: wp.vec3):
    u = a - b
    w = c - b
    return wp.atan2(wp.length(wp.cross(u, w)), wp.dot(u, w))


@wp.func
def dihedral_angle(a: wp.vec3, b: wp.vec3, c: wp.vec3, d: wp.vec3):
    b1 = b - a
    b2 = c - b
    b3 = d - c
    n1 = wp.cross(b1, b2)
    n2 = wp.cross(b2, b3)
    m = wp.cross(n1, wp.normalize(b2))
    return wp.atan2(wp.dot(m, n2), wp.dot(n1, n2))


def _angle(a, b, c):
    u, w = a - b, c - b
    return np.arctan2(np.linalg.norm(np.cross(u, w)), np.dot(u, w))


def _dihedral(a, b, c, d):
    b1, b2, b3 = b - a, c - b, d - c
    n1, n2 = np.cross(b1, b2), np.cross(b2, b3)
    m = np.cross(n1, b2 / np.linalg.norm(b2))
    return np.arctan2(np.dot(m, n2), np.dot(n1, n2))


def reference_set(n_conf, seed):
    """Distorted butane conformations and their reference energies."""
    rng = np.random.default_rng(seed)
    confs, energies = [], []
    for _ in range(n_conf):
        r = 1.53 + 0.04 * rng.standard_normal(3)
        th = np.deg2rad(112.0 + 6.0 * rng.standard_normal(2))
        phi = rng.uniform(-np.pi, np.pi)
        x = np.zeros((4, 3))
        x[1] = [r[0], 0, 0]
        x[2] = x[1] + r[1] * np.array([-np.cos(th[0]), np.sin(th[0]), 0])
        b = (x[2] - x[1]) / np.linalg.norm(x[2] - x[1])
        n = np.cross(x[1] - x[0], b)
        n /= np.linalg.norm(n)
        m = np.cross(n, b)
        d_loc = np.array([-np.cos(th[1]), np.sin(th[1]) * np.cos(phi), np.sin(th[1]) * np.sin(phi)])
        x[3] = x[2] + r[2] * (d_loc[0] * b + d_loc[1] * m + d_loc[2] * n)
        e = sum(310.0 * (np.linalg.norm(x[i] - x[j]) - 1.526) ** 2 - 150.0 * (np.linalg.norm(x[i] - x[j]) - 1.526) ** 3
                for i, j in BONDS)
        e += sum(0.5 * 63.0 * (_angle(x[i], x[j], x[k]) - np.deg2rad(111.0)) ** 2 for i, j, k in ANGLES)
        ph = _dihedral(*x)
        e += 1.4 * (1 + np.cos(3 * ph - np.pi)) + 0.2 * (1 - np.cos(ph))
        confs.append(x)
        energies.append(e)
    return np.array(confs, dtype=np.float32), np.array(energies, dtype=np.float32)
