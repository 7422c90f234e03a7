"""Exchange current density and transfer coefficient of an NMC cathode.

Galvanostatic pulse data from three coin cells are held in a @wp.struct;
the half-cell model uses the Butler-Volmer law from _electrode.py. The fit
runs in a CellKinetics class that owns the tape.
"""
import numpy as np
import warp as wp

from _electrode import bv_current

wp.config.quiet = True

ETA = np.array([0.004, -0.006, 0.025, -0.031, 0.048, -0.052, 0.071, -0.080, 0.095, -0.11, 0.012, -0.018],
               dtype=np.float32)  # V
I_OBS = np.array([0.19, -0.29, 1.35, -1.50, 3.10, -2.65, 5.9, -4.6, 10.8, -7.2, 0.62, -0.90],
                 dtype=np.float32)  # mA/cm^2


@wp.struct
class PulseData:
    eta: wp.array(dtype=float)
    i_obs: wp.array(dtype=float)
    weight: float


@wp.kernel
def pulse_misfit(data: PulseData, p: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    i_mod = bv_current(data.eta[k], p[0], p[1])
    r = (i_mod - data.i_obs[k]) * data.weight
    wp.atomic_add(loss, 0, r * r)


class CellKinetics:
    def __init__(self):
        self.data = PulseData()
        self.data.eta = wp.array(ETA, dtype=float)
        self.data.i_obs = wp.array(I_OBS, dtype=float)
        self.data.weight = 1.0 / float(len(ETA))
        self.params = wp.zeros(2, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def objective(self, p):
        self.params.assign(np.asarray(p, dtype=np.float32))
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(pulse_misfit, dim=len(ETA), inputs=[self.data, self.params], outputs=[self.loss])
        tape.backward(self.loss)
        g = self.params.grad.numpy().astype(np.float64)
        tape.zero()
        return float(self.loss.numpy()[0]), g


PARAMS0 = [1.1, 0.42]
FD_EPS = [1e-3, 1e-4]
_model = None


def evaluate(p):
    global _model
    if _model is None:
        _model = CellKinetics()
    return _model.objective(p)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"misfit {l:.5f}  dL/di0={g[0]:.4f}  dL/dalpha={g[1]:.4f}")
