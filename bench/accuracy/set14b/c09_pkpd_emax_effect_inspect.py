# correct: the retained concentration array is written by exactly one taped launch; the report helper only reads its peak back.
"""Oral dosing PK/PD: one-compartment absorption/elimination drives an Emax
effect; (ka, ke, EC50) are fitted to the measured effect over 24 h.

The plasma concentrations keep their gradient (retain_grad) so the
sensitivity of the fit to each sampling time can be plotted.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DOSE_OVER_V = 8.0
E_MAX = 100.0
TIMES = np.array([0.5, 1, 1.5, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24], dtype=np.float32)
E_OBS = np.array([28, 45, 55, 60, 64, 63, 58, 51, 44, 38, 27, 19, 13], dtype=np.float32)


@wp.kernel
def concentration(t: wp.array(dtype=float), prm: wp.array(dtype=float), conc: wp.array(dtype=float)):
    i = wp.tid()
    ka = prm[0]
    ke = prm[1]
    conc[i] = DOSE_OVER_V * ka / (ka - ke) * (wp.exp(-ke * t[i]) - wp.exp(-ka * t[i]))


@wp.kernel
def emax_misfit(conc: wp.array(dtype=float), prm: wp.array(dtype=float), obs: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    i = wp.tid()
    e = E_MAX * conc[i] / (prm[2] + conc[i])
    d = (e - obs[i]) / 10.0
    wp.atomic_add(loss, 0, d * d)


def peak_exposure(t, prm, conc):
    """Cmax for the dosing report."""
    return float(conc.numpy().max())


def run(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    t = wp.array(TIMES, dtype=float)
    obs = wp.array(E_OBS, dtype=float)
    conc = wp.zeros(TIMES.size, dtype=float, requires_grad=True, retain_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(concentration, dim=TIMES.size, inputs=[t, prm], outputs=[conc])
        c_max = peak_exposure(t, prm, conc)
        wp.launch(emax_misfit, dim=TIMES.size, inputs=[conc, prm, obs], outputs=[loss])
    tape.backward(loss)
    sens = conc.grad.numpy()
    return float(loss.numpy()[0]), prm.grad.numpy().copy(), (c_max, sens)


PARAMS0 = np.array([1.2, 0.12, 3.0])


def evaluate(p):
    return run(p)[:2]


if __name__ == "__main__":
    l, g, (c_max, sens) = run(PARAMS0)
    print(f"misfit {l:.4f}, Cmax {c_max:.3f}; d/d(ka, ke, EC50) = {g}")
    print("per-sample sensitivity", np.round(sens, 3))
