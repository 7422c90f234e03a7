"""Path-loss model of a 3.5 GHz rural link survey with foliage attenuation.

PL = PL0 + 10 n log10(d / 1 m) + A d_f^B, where the Weissberger-type foliage
term applies only to links whose Fresnel zone crosses tree cover (foliage
depth d_f > 0). The path-loss exponent n and the foliage coefficients A, B are
fitted to drive-test measurements in dB.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

PL0 = 43.3  # dB free-space at 1 m, 3.5 GHz
DIST = np.array([120.0, 250.0, 400.0, 610.0, 800.0, 950.0, 1300.0, 1600.0, 2100.0, 2500.0])
DEPTH = np.array([0.0, 12.0, 0.0, 25.0, 40.0, 0.0, 8.0, 0.0, 60.0, 30.0])  # m of foliage
PL_MEAS = np.array([92.0, 112.0, 110.0, 126.0, 134.0, 118.0, 125.0, 126.0, 146.0, 138.0])


@wp.kernel
def path_loss_misfit(par: wp.array(dtype=float), dist: wp.array(dtype=float), depth: wp.array(dtype=float),
                     meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    pl = PL0 + 10.0 * par[0] * wp.log(dist[i]) / wp.log(10.0)
    veg = wp.where(depth[i] > 0.0, par[1] * wp.pow(depth[i], par[2]), 0.0)  # expect: nonfinite
    d = pl + veg - meas[i]
    wp.atomic_add(loss, 0, d * d / float(dist.shape[0]))


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(path_loss_misfit, dim=len(DIST), inputs=[par, wp.array(DIST, dtype=float), wp.array(DEPTH, dtype=float),
                                                           wp.array(PL_MEAS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [2.6, 1.2, 0.6]
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"mean squared dB error {l:.3f}  gradient (n, A, B) = {g}")
