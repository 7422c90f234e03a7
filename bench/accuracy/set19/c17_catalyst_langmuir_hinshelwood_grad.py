# correct: look-alike of b17 (vacant-site fractions in their own array between two taped kernels), with that array allocated with requires_grad=True.
"""Langmuir-Hinshelwood kinetics of CO oxidation over a Pt/alumina catalyst.

r = k K_A K_B p_A p_B theta_v^2, with the vacant-site fraction
theta_v = 1 / (1 + K_A p_A + K_B p_B) and k = k0 exp(-Ea / (R T)). A
differential-reactor data set at three temperatures is fitted in log-rate
space; the vacant-site fractions are kept in their own array for reporting.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

R_GAS = 8.314e-3  # kJ/(mol K)


@wp.kernel
def vacant_sites(par: wp.array(dtype=float), pa: wp.array(dtype=float), pb: wp.array(dtype=float),
                 theta: wp.array(dtype=float)):
    i = wp.tid()
    theta[i] = 1.0 / (1.0 + wp.exp(par[2]) * pa[i] + wp.exp(par[3]) * pb[i])


@wp.kernel
def log_rate_misfit(par: wp.array(dtype=float), temp: wp.array(dtype=float), pa: wp.array(dtype=float),
                    pb: wp.array(dtype=float), theta: wp.array(dtype=float), ln_r_obs: wp.array(dtype=float),
                    loss: wp.array(dtype=float)):
    i = wp.tid()
    ln_k = par[0] - 100.0 * par[1] / (R_GAS * temp[i])
    ln_r = ln_k + par[2] + par[3] + wp.log(pa[i] * pb[i]) + 2.0 * wp.log(theta[i])
    d = ln_r - ln_r_obs[i]
    wp.atomic_add(loss, 0, d * d)


class CatalystKinetics:
    def __init__(self, temp, pa, pb, ln_r_obs):
        self.n = len(temp)
        self.temp = wp.array(temp, dtype=float)
        self.pa = wp.array(pa, dtype=float)
        self.pb = wp.array(pb, dtype=float)
        self.ln_r_obs = wp.array(ln_r_obs, dtype=float)

    def misfit(self, p):
        par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.vacant = wp.zeros(self.n, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(vacant_sites, dim=self.n, inputs=[par, self.pa, self.pb], outputs=[self.vacant])
            wp.launch(log_rate_misfit, dim=self.n, inputs=[par, self.temp, self.pa, self.pb, self.vacant, self.ln_r_obs],
                      outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), par.grad.numpy().copy()


_T = np.repeat([450.0, 475.0, 500.0], 5)
_PA = np.tile([0.5, 1.0, 2.0, 4.0, 8.0], 3)  # kPa CO
_PB = np.full(15, 5.0)  # kPa O2
_th = 1.0 / (1.0 + np.exp(0.8) * _PA + np.exp(-1.0) * _PB)
LN_R_OBS = 18.0 - 100.0 * 0.9 / (R_GAS * _T) + 0.8 - 1.0 + np.log(_PA * _PB) + 2 * np.log(_th)
LN_R_OBS += np.random.default_rng(4).normal(0.0, 0.05, 15)

MODEL = CatalystKinetics(_T, _PA, _PB, LN_R_OBS)
PARAMS0 = [17.0, 0.85, 0.5, -0.7]  # ln k0, Ea (100 kJ/mol), ln K_A, ln K_B
FD_EPS = 1e-3


def evaluate(p):
    return MODEL.misfit(p)


if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"log-rate misfit {l:.4f}  gradient {g}  mean vacant fraction {MODEL.vacant.numpy().mean():.3f}")
