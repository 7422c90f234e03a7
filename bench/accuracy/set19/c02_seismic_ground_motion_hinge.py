# correct: look-alike of b02 (hand-written hinge-spreading adjoint in a helper), with the far-field b2 partial taken relative to the hinge distance.
"""Regional ground-motion model for peak ground acceleration.

ln PGA = c0 + c1 (M - 6) + spreading(R; b1, b2) - q R, with hypocentral
distance R = sqrt(Repi^2 + h^2). The coefficients are regressed on a small
strong-motion catalogue (magnitudes 4-7, epicentral distances 5-300 km).
"""
import numpy as np
import warp as wp

from _ground_motion_hinge import spreading

wp.config.quiet = True

Q_ANELASTIC = 0.0035  # 1/km
DEPTH = 10.0  # km


@wp.kernel
def gmpe_misfit(coef: wp.array(dtype=float), mag: wp.array(dtype=float), repi: wp.array(dtype=float),
                ln_pga: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.sqrt(repi[i] * repi[i] + DEPTH * DEPTH)
    pred = coef[0] + coef[1] * (mag[i] - 6.0) + spreading(r, coef[2], coef[3]) - Q_ANELASTIC * r
    d = pred - ln_pga[i]
    wp.atomic_add(loss, 0, d * d / float(mag.shape[0]))


class GroundMotionModel:
    def __init__(self, mag, repi, ln_pga):
        self.mag = wp.array(mag, dtype=float)
        self.repi = wp.array(repi, dtype=float)
        self.ln_pga = wp.array(ln_pga, dtype=float)
        self.n = len(mag)

    def misfit(self, coef_np):
        coef = wp.array(np.asarray(coef_np, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(gmpe_misfit, dim=self.n, inputs=[coef, self.mag, self.repi, self.ln_pga], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), coef.grad.numpy().copy()


rng = np.random.default_rng(11)
MAG = rng.uniform(4.0, 7.0, 40)
REPI = np.exp(rng.uniform(np.log(5.0), np.log(300.0), 40))
_r = np.sqrt(REPI**2 + 100.0)
_spr = np.where(_r < 70.0, -1.1 * np.log(_r), -1.1 * np.log(70.0) - 0.5 * np.log(_r / 70.0))
LN_PGA = 1.2 + 1.0 * (MAG - 6.0) + _spr - 0.0035 * _r + rng.normal(0.0, 0.3, 40)

MODEL = GroundMotionModel(MAG, REPI, LN_PGA)
PARAMS0 = [1.0, 0.9, 1.0, 0.8]
FD_EPS = 1e-3


def evaluate(p):
    return MODEL.misfit(p)


if __name__ == "__main__":
    c = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(c)
        c -= 0.01 * g
    print(f"misfit {l:.4f}  coefficients {np.round(c, 3)}")
