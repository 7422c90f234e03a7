"""Earthquake hypocentre and origin time from P-wave arrival picks.

Homogeneous half-space, straight rays: t_r = t0 + |x_r - x_s| / v. Following
common practice the search starts at the station with the earliest arrival
(at the surface) with the origin time one travel-time earlier; Gauss-Newton
style steps use the Warp gradient of the squared pick residuals.
"""
import numpy as np
import warp as wp

VP = 6.0  # km/s
STATIONS = np.array([[0.0, 0.0, 0.0], [12.0, 3.0, 0.0], [-6.0, 10.0, 0.0], [8.0, -9.0, 0.0],
                     [-11.0, -4.0, 0.0], [3.0, 15.0, 0.0], [18.0, 10.0, 0.0]], dtype=np.float32)


@wp.kernel
def pick_residuals(hypo: wp.array(dtype=float), stations: wp.array(dtype=wp.vec3), picks: wp.array(dtype=float),
                   loss: wp.array(dtype=float)):
    r = wp.tid()
    src = wp.vec3(hypo[0], hypo[1], hypo[2])
    d = stations[r] - src
    dist = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    res = hypo[3] + dist / VP - picks[r]
    wp.atomic_add(loss, 0, res * res)


STA = wp.array(STATIONS, dtype=wp.vec3)
TRUE_HYPO = np.array([2.0, 1.5, 8.0], dtype=np.float32)
PICKS_NP = (1.0 + np.linalg.norm(STATIONS - TRUE_HYPO, axis=1) / VP).astype(np.float32)
PICKS = wp.array(PICKS_NP, dtype=float)


def starting_guess():
    first = int(np.argmin(PICKS_NP))
    x0 = STATIONS[first]
    return np.array([x0[0], x0[1], x0[2], PICKS_NP[first] - 0.5], dtype=np.float64)


PARAMS0 = starting_guess().tolist()
FD_EPS = 1e-3


def evaluate(p):
    hypo = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(pick_residuals, dim=len(STATIONS), inputs=[hypo, STA, PICKS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), hypo.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(8):
        f, g = evaluate(p)
        print(f"iter {it}: rms {np.sqrt(f / len(STATIONS)):.4f} s  hypo {np.round(p[:3], 3)} t0 {p[3]:.3f}  grad {np.round(g, 4)}")
        p = p - np.array([3.0, 3.0, 3.0, 0.05]) * g
