"""Exoplanet transit photometry: the radius ratio k = Rp/Rs and the linear
limb-darkening coefficient u of a hot Jupiter are fitted to a phase-folded
transit dip (ppt) sampled at known projected separations z (in stellar radii).
The depth model and its adjoint are in _transit.py.
"""
import numpy as np
import warp as wp

from _transit import light_curve

wp.config.quiet = True

Z = np.array([0.0, 0.3, 0.6, 0.8, 0.93, 0.96, 0.99, 1.02, 1.05, 1.08, 1.25])
DIP_OBS_PPT = np.array([12.21, 11.95, 10.93, 9.52, 4.71, 3.83, 3.05, 2.18, 1.40, 0.53, 0.0])
SIGMA_PPT = 0.2
PARAMS0 = np.array([0.105, 0.45])


@wp.kernel
def chi2(dip: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (dip[i] - obs[i]) / SIGMA_PPT
    wp.atomic_add(loss, 0, r * r)


class TransitFit:
    def __init__(self):
        self.z = wp.array(Z, dtype=float)
        self.obs = wp.array(DIP_OBS_PPT, dtype=float)
        self.dip = wp.zeros(len(Z), dtype=float, requires_grad=True)

    def chi2_and_grad(self, p_np):
        p = wp.array(p_np, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.dip.grad.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(light_curve, dim=len(Z), inputs=[self.z, p], outputs=[self.dip])
            wp.launch(chi2, dim=len(Z), inputs=[self.dip, self.obs], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), p.grad.numpy().copy()


FIT = TransitFit()


def evaluate(p_np):
    return FIT.chi2_and_grad(p_np)


FD_EPS = 1e-3

if __name__ == "__main__":
    val, g = evaluate(PARAMS0)
    print(f"chi2 {val:.3f}  d/dk {g[0]:.2f}  d/du {g[1]:.3f}")
