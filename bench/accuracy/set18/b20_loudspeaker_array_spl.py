"""Gain calibration of a six-box line-array at a concert hall.

Each measurement microphone hears the sum of the box powers through a
distance/directivity attenuation; levels are compared in dB with a noise
floor for silent readings. During the soundcheck some boxes were muted
(drive 0), so some microphones received no power at all.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BOX, N_MIC = 6, 10
RNG = np.random.default_rng(17)
ATTEN = (RNG.uniform(0.2, 1.0, (N_MIC, N_BOX)) / RNG.uniform(4.0, 30.0, (N_MIC, 1)) ** 2).astype(np.float32)
DRIVE = np.array([1.0, 1.0, 0.0, 0.8, 0.0, 1.0], dtype=np.float32)
ATTEN[7, [0, 1, 3, 5]] = 0.0  # mic 7 is shadowed from the live boxes
ATTEN[9, [0, 1, 3, 5]] = 0.0
FLOOR_DB = 30.0
SPL_OBS = np.array([94.1, 91.0, 88.7, 96.2, 90.3, 89.9, 92.4, 30.0, 87.5, 30.0], dtype=np.float32)
REF = 1.0e-12


@wp.kernel
def spl_misfit(atten: wp.array2d(dtype=float), drive: wp.array(dtype=float), gain: wp.array(dtype=float),
               obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    m = wp.tid()
    pw = float(0.0)
    for b in range(N_BOX):
        pw += atten[m, b] * gain[b] * drive[b] * drive[b]
    pw = pw / REF * 1.0e-3
    spl = wp.where(pw > 0.0, 10.0 * wp.log10(pw), FLOOR_DB)  # expect: nonfinite
    r = spl - obs[m]
    wp.atomic_add(loss, 0, r * r / float(N_MIC))


atten_d = wp.array(ATTEN, dtype=float)
drive_d = wp.array(DRIVE, dtype=float)
obs_d = wp.array(SPL_OBS, dtype=float)
PARAMS0 = [1.0, 0.9, 1.0, 1.1, 1.0, 1.2]


def evaluate(p):
    gain = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spl_misfit, dim=N_MIC, inputs=[atten_d, drive_d, gain, obs_d], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), gain.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"SPL misfit {l:.3f} dB^2  gain gradient {np.round(g, 3)}")
