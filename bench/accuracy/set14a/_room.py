"""Statistical room acoustics: Eyring reverberation time of a shoebox room and its
diffuse-field energy decay, Schroeder backward integration, levels in dB."""
import numpy as np
import warp as wp

VOLUME = 240.0                     # m^3 (8 x 6 x 5 m)
AREAS = np.array([48.0, 140.0, 48.0], dtype=np.float32)  # floor, walls, ceiling (m^2)
FS = 400.0                         # envelope sample rate (Hz)
N_T = 320
N_FIT = 200                        # samples used in the fit (first 0.5 s)


@wp.kernel
def eyring_rt(alpha: wp.array(dtype=float), area: wp.array(dtype=float), volume: float, rt: wp.array(dtype=float)):
    a_sum = float(0.0)
    s_sum = float(0.0)
    for k in range(3):
        a_sum += area[k] * alpha[k]
        s_sum += area[k]
    rt[0] = 0.161 * volume / (-s_sum * wp.log(1.0 - a_sum / s_sum))


@wp.kernel
def decay_envelope(rt: wp.array(dtype=float), fs: float, env: wp.array(dtype=float)):
    t = wp.tid()
    env[t] = 1.0e-3 * wp.exp(-13.8155 * float(t) / (fs * rt[0]))


@wp.kernel
def schroeder(env: wp.array(dtype=float), fs: float, edc: wp.array(dtype=float)):
    t = wp.tid()
    acc = float(0.0)
    for s in range(t, env.shape[0]):
        acc += env[s]
    edc[t] = acc / fs


@wp.kernel
def level_misfit(edc: wp.array(dtype=float), meas_db: wp.array(dtype=float), n_fit: int, loss: wp.array(dtype=float)):
    t = wp.tid()
    if t < n_fit:
        d = 10.0 * wp.log10(edc[t] / 1.0e-12) - meas_db[t]
        wp.atomic_add(loss, 0, d * d / float(n_fit))


@wp.kernel
def to_db(edc: wp.array(dtype=float), out: wp.array(dtype=float)):
    t = wp.tid()
    out[t] = 10.0 * wp.log10(edc[t] / 1.0e-12)


def measured_edc_db():
    """Schroeder curve of a measured impulse response (alpha = 0.12, 0.22, 0.40)."""
    a_bar = float(np.dot(AREAS, [0.12, 0.22, 0.40]) / AREAS.sum())
    rt = 0.161 * VOLUME / (-AREAS.sum() * np.log(1.0 - a_bar))
    t = np.arange(N_T) / FS
    env = 1.0e-3 * np.exp(-13.8155 * t / rt)
    edc = np.cumsum(env[::-1])[::-1] / FS
    rng = np.random.default_rng(3)
    return (10.0 * np.log10(edc / 1.0e-12) + 0.3 * rng.standard_normal(N_T)).astype(np.float32)
