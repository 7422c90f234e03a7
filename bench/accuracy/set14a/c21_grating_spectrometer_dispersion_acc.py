# correct: the grating momentum is added to the local direction vector's x component with -=, which Warp differentiates correctly.
"""Transmission-grating spectrometer: line positions on the detector.

Collimated light at incidence tilt theta (and a small sagittal angle for the slit
height) is diffracted in first order by a grating of period Lambda; an ideal camera
lens (f = 50 mm) maps the direction cosines to detector positions. Grating period and
tilt are fitted so that five calibration lines land on their measured pixel positions.
"""
import numpy as np
import warp as wp

F_CAM = 50.0
LINES = np.array([0.4358, 0.4861, 0.5461, 0.5876, 0.6563], dtype=np.float32)  # um
MEAS_X = np.array([12.09, 10.55, 8.76, 7.47, 5.38], dtype=np.float32)       # mm
SLIT_ANG = np.array([-0.01, 0.0, 0.01], dtype=np.float32)
PARAMS0 = np.array([1.68, 0.23])  # period (um), tilt (rad)
FD_EPS = 1e-4


@wp.kernel
def line_position(lam: wp.array(dtype=float), slit: wp.array(dtype=float), prm: wp.array(dtype=float), f: float,
                  meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    k = wp.vec3(wp.sin(prm[1]), slit[j], 0.0)
    k[0] -= lam[i] / prm[0]
    out = wp.vec3(k[0], k[1], wp.sqrt(1.0 - k[0] * k[0] - k[1] * k[1]))
    x = f * (out[0] / out[2] + wp.tan(prm[1]))
    d = x - meas[i]
    wp.atomic_add(loss, 0, d * d / float(slit.shape[0]))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(line_position, dim=(len(LINES), len(SLIT_ANG)), inputs=[wp.array(LINES, dtype=float),
                  wp.array(SLIT_ANG, dtype=float), prm, F_CAM, wp.array(MEAS_X, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"calibration misfit {L:.4f} mm^2; d/d(period, tilt) = {g}")
