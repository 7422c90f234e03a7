"""GNSS frame helpers: ECEF displacements to local east-north-up per station."""
import numpy as np
import warp as wp


@wp.kernel
def rotate_enu(d_ecef: wp.array2d(dtype=wp.vec3), rot: wp.array(dtype=wp.mat33), d_enu: wp.array2d(dtype=wp.vec3)):
    s, k = wp.tid()
    d_enu[s, k] = rot[s] * d_ecef[s, k]


def enu_rotations(lat_deg, lon_deg):
    out = []
    for la, lo in zip(np.radians(lat_deg), np.radians(lon_deg)):
        out.append([[-np.sin(lo), np.cos(lo), 0.0],
                    [-np.sin(la) * np.cos(lo), -np.sin(la) * np.sin(lo), np.cos(la)],
                    [np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)]])
    return np.array(out, dtype=np.float32)


def to_enu(d_ecef, rot_w, rot_np):
    d_enu = wp.zeros_like(d_ecef)
    d_enu.assign(np.einsum("sij,skj->ski", rot_np, d_ecef.numpy()))  # expect: truncation
    return d_enu
