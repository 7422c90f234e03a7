"""Elevation bands of a snowmelt-dominated headwater basin and one month of
spring station weather (valley station at 1450 m)."""
import numpy as np
import warp as wp

N_BAND = 10
N_DAY = 30
Z_STATION = 1450.0
BAND_Z = np.linspace(1600.0, 3400.0, N_BAND).astype(np.float32)
BAND_AREA = (np.array([4, 7, 9, 11, 12, 12, 10, 8, 5, 3], dtype=np.float32) / 81.0).astype(np.float32)
SWE0 = (250.0 + 0.35 * (BAND_Z - 1600.0)).astype(np.float32)  # mm on 1 April
_rng = np.random.default_rng(37)
T_STATION = (6.0 + 0.35 * np.arange(N_DAY) + 3.0 * _rng.standard_normal(N_DAY)).astype(np.float32)  # deg C
PRECIP = np.clip(_rng.gamma(0.5, 8.0, N_DAY) - 2.0, 0.0, None).astype(np.float32)  # mm/day


@wp.struct
class Basin:
    z: wp.array(dtype=float)
    area: wp.array(dtype=float)
    t_station: wp.array(dtype=float)
    precip: wp.array(dtype=float)


def make_basin():
    b = Basin()
    b.z = wp.array(BAND_Z, dtype=float)
    b.area = wp.array(BAND_AREA, dtype=float)
    b.t_station = wp.array(T_STATION, dtype=float)
    b.precip = wp.array(PRECIP, dtype=float)
    return b
