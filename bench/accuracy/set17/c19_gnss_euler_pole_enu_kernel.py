# correct: the ECEF-to-ENU rotation in helper _gnss_frames_kernel.py is a taped kernel launch (mat33 times vec3), not a host copy
"""Plate motion from continuous GNSS: fit the Euler rotation vector (three
components, rad/Myr-scaled) to east-north displacement time series of eight
stations; ECEF velocities v = omega x r are rotated to ENU in helper _gnss_frames.py."""
import numpy as np
import warp as wp

from _gnss_frames_kernel import enu_rotations, to_enu

wp.config.quiet = True
wp.set_device("cpu")

LAT = np.array([46.2, 47.1, 45.5, 48.0, 44.8, 46.9, 45.9, 47.6])
LON = np.array([6.1, 8.5, 9.2, 7.6, 10.9, 11.4, 7.0, 9.9])
N_EPOCH = 12
R_EARTH = 6371.0


def ecef(lat, lon):
    la, lo = np.radians(lat), np.radians(lon)
    return R_EARTH * np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=1)


POS = wp.array(ecef(LAT, LON).astype(np.float32), dtype=wp.vec3)
ROT_NP = enu_rotations(LAT, LON)
ROT = wp.array(ROT_NP, dtype=wp.mat33)
YEARS = wp.array(np.linspace(0.0, 5.5, N_EPOCH).astype(np.float32), dtype=float)


@wp.kernel
def plate_displacement(omega: wp.array(dtype=wp.vec3), pos: wp.array(dtype=wp.vec3), years: wp.array(dtype=float),
                       d: wp.array2d(dtype=wp.vec3)):
    s, k = wp.tid()
    d[s, k] = wp.cross(omega[0], pos[s]) * years[k]


@wp.kernel
def en_misfit(d_enu: wp.array2d(dtype=wp.vec3), obs: wp.array2d(dtype=wp.vec3), loss: wp.array(dtype=float)):
    s, k = wp.tid()
    r = d_enu[s, k] - obs[s, k]
    wp.atomic_add(loss, 0, r[0] * r[0] + r[1] * r[1])


def displacements(omega_w, requires_grad):
    d = wp.zeros((len(LAT), N_EPOCH), dtype=wp.vec3, requires_grad=requires_grad)
    wp.launch(plate_displacement, dim=d.shape, inputs=[omega_w, POS, YEARS], outputs=[d])
    return to_enu(d, ROT, ROT_NP)


_true = wp.array([wp.vec3(0.0049, -0.0021, 0.0063)], dtype=wp.vec3)
OBS_NP = displacements(_true, False).numpy().astype(np.float64)
OBS_NP[..., :2] += 0.5 * np.sin(np.arange(OBS_NP[..., :2].size)).reshape(OBS_NP[..., :2].shape)
OBS = wp.array(OBS_NP.astype(np.float32), dtype=wp.vec3)
PARAMS0 = np.array([0.0045, -0.0018, 0.0060])
FD_EPS = 1e-5


def evaluate(p):
    om = wp.array(np.asarray(p, dtype=np.float32).reshape(1, 3), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        d_enu = displacements(om, True)
        wp.launch(en_misfit, dim=d_enu.shape, inputs=[d_enu, OBS], outputs=[loss])
    tape.backward(loss)
    r = (d_enu.numpy().astype(np.float64) - OBS_NP)[..., :2]
    return float(np.sum(r * r)), om.grad.numpy().astype(np.float64).ravel()


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"EN displacement misfit {L:.3f} mm^2; grad omega = {g}")
