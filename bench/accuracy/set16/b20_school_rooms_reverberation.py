"""Reverberation time of five school rooms (Eyring): calibrate the
absorption of three lining materials (ceiling tile, plaster, carpet) and
their common frequency slope to RT60 measured in six octave bands.

alpha_m(f) = a_m (f / 1 kHz)^b,  RT = 0.161 V / (-S ln(1 - A / S) + 4 m(f) V)
with A the equivalent absorption area summed over a room's surfaces.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

BANDS = np.array([125.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0], dtype=np.float32)
N_BAND = BANDS.size
AIR_M = np.array([0.0001, 0.0002, 0.0004, 0.0008, 0.0018, 0.0050], dtype=np.float32)  # 1/m
VOLUME = np.array([180.0, 210.0, 150.0, 420.0, 95.0], dtype=np.float32)
N_ROOM = VOLUME.size
_surf = []  # (room, material, area)
for r, v in enumerate(VOLUME):
    h = 3.0
    floor = v / h
    wall = 4.0 * np.sqrt(floor) * h
    _surf += [(r, 0, floor), (r, 1, wall), (r, 2, floor * (0.3 + 0.15 * r))]
SURF = np.array(_surf, dtype=np.float32)
N_SURF = SURF.shape[0]


@wp.struct
class Rooms:
    surf_room: wp.array(dtype=int)
    surf_mat: wp.array(dtype=int)
    surf_area: wp.array(dtype=float)
    volume: wp.array(dtype=float)
    total_area: wp.array(dtype=float)
    absorbed: wp.array2d(dtype=float)


def make_rooms():
    rm = Rooms()
    rm.surf_room = wp.array(SURF[:, 0].astype(np.int32), dtype=int)
    rm.surf_mat = wp.array(SURF[:, 1].astype(np.int32), dtype=int)
    rm.surf_area = wp.array(SURF[:, 2], dtype=float)
    rm.volume = wp.array(VOLUME, dtype=float)
    rm.total_area = wp.array(np.bincount(SURF[:, 0].astype(int), weights=SURF[:, 2]).astype(np.float32), dtype=float)
    rm.absorbed = wp.zeros((N_ROOM, N_BAND), dtype=float)  # expect: requires_grad
    return rm


@wp.kernel
def absorption_area(rm: Rooms, prm: wp.array(dtype=float), bands: wp.array(dtype=float)):
    s, b = wp.tid()
    alpha = prm[rm.surf_mat[s]] * wp.pow(bands[b] / 1000.0, prm[3])
    wp.atomic_add(rm.absorbed, rm.surf_room[s], b, rm.surf_area[s] * alpha)


@wp.kernel
def rt_misfit(rm: Rooms, air: wp.array(dtype=float), rt_meas: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    r, b = wp.tid()
    area = rm.total_area[r]
    v = rm.volume[r]
    rt = 0.161 * v / (-area * wp.log(1.0 - rm.absorbed[r, b] / area) + 4.0 * air[b] * v)
    d = (rt - rt_meas[r, b]) / 0.05
    wp.atomic_add(loss, 0, d * d / float(N_ROOM * N_BAND))


BANDS_W = wp.array(BANDS, dtype=float)
AIR_W = wp.array(AIR_M, dtype=float)


def rt60(p):
    rm = make_rooms()
    wp.launch(absorption_area, dim=(N_SURF, N_BAND), inputs=[rm, wp.array(p, dtype=float), BANDS_W])
    a = rm.absorbed.numpy()
    s = rm.total_area.numpy()[:, None]
    return 0.161 * VOLUME[:, None] / (-s * np.log(1 - a / s) + 4 * AIR_M[None, :] * VOLUME[:, None])


RT_MEAS = wp.array((rt60([0.55, 0.03, 0.25, 0.35]) * (1 + 0.03 * np.random.default_rng(59).standard_normal(
    (N_ROOM, N_BAND)))).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    rm = make_rooms()
    tape = wp.Tape()
    with tape:
        wp.launch(absorption_area, dim=(N_SURF, N_BAND), inputs=[rm, prm, BANDS_W])
        wp.launch(rt_misfit, dim=(N_ROOM, N_BAND), inputs=[rm, AIR_W, RT_MEAS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.5, 0.04, 0.2, 0.3])  # a_tile, a_plaster, a_carpet, slope b
FD_EPS = 1e-4

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"RT60 misfit {f:.3f}; d/d(a_tile, a_plaster, a_carpet, b) = {g}")
