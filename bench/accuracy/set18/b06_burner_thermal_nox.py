"""Thermal-NOx emission index of a premixed natural-gas burner.

Flame temperature from a one-line heat balance for every equivalence ratio;
rich mixtures are then re-evaluated with a dissociation correction. The
Zeldovich rate gives the NOx index, fitted in log space to stack readings.
A BurnerModel class holds the buffers; the flame temperature keeps its
gradient so the temperature sensitivity can be plotted afterwards.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

PHI = np.array([0.62, 0.70, 0.78, 0.86, 0.94, 1.02, 1.10, 1.18, 1.26], dtype=np.float32)
LOG_NOX_OBS = np.array([-4.05, -2.96, -2.01, -1.22, -0.58, -0.63, -1.17, -1.84, -2.48], dtype=np.float32)
E_ACT = 38370.0  # K


@wp.kernel
def flame_temp_lean(phi: wp.array(dtype=float), p: wp.array(dtype=float), temp: wp.array(dtype=float)):
    i = wp.tid()
    temp[i] = 300.0 + 1000.0 * p[0] * wp.min(phi[i], 1.0)


@wp.kernel
def flame_temp_rich(phi: wp.array(dtype=float), p: wp.array(dtype=float), temp: wp.array(dtype=float)):
    i = wp.tid()
    f = phi[i]
    if f > 1.0:
        temp[i] = 300.0 + 1000.0 * p[0] / f * (1.0 - p[1] * (f - 1.0))


@wp.kernel
def zeldovich_misfit(temp: wp.array(dtype=float), log_obs: wp.array(dtype=float), p: wp.array(dtype=float),
                     loss: wp.array(dtype=float)):
    i = wp.tid()
    log_nox = wp.log(p[2]) + 18.0 - E_ACT / temp[i]
    r = log_nox - log_obs[i]
    wp.atomic_add(loss, 0, r * r / 9.0)


class BurnerModel:
    def __init__(self):
        self.n = len(PHI)
        self.phi = wp.array(PHI, dtype=float)
        self.log_obs = wp.array(LOG_NOX_OBS, dtype=float)

    def run(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.temp = wp.zeros(self.n, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(flame_temp_lean, dim=self.n, inputs=[self.phi, self.p], outputs=[self.temp])
            wp.launch(flame_temp_rich, dim=self.n, inputs=[self.phi, self.p], outputs=[self.temp])
            wp.launch(zeldovich_misfit, dim=self.n, inputs=[self.temp, self.log_obs, self.p], outputs=[self.loss])
        self.tape.backward(self.loss)
        return float(self.loss.numpy()[0]), self.p.grad.numpy().astype(np.float64)


PARAMS0 = [1.95, 0.45, 1.2]  # heat-release rise (kK), dissociation, rate scale
FD_EPS = [2e-4, 1e-3, 1e-3]
_burner = BurnerModel()


def evaluate(p):
    return _burner.run(p)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"log-NOx misfit {l:.4f}  grad {g}")
    print("flame temperatures", np.round(_burner.temp.numpy(), 0))
    print("dL/dT_flame", np.round(_burner.temp.grad.numpy(), 5))
