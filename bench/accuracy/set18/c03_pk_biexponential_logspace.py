# correct: two-compartment PK fit whose kernel returns log-concentration, so the host seed 2 r / N of the mean squared log-residual is its exact derivative.
"""Two-compartment pharmacokinetics of an IV antibiotic bolus.

log C(t) with C = D / V * (f exp(-a t) + (1 - f) exp(-b t)) for six patients
sharing V, a, b, f. Assay error is proportional, so the misfit is the mean
squared log-residual, computed on the host from the predicted log-levels.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DOSE = np.array([500.0, 500.0, 750.0, 750.0, 1000.0, 1000.0], dtype=np.float32)  # mg
T_H = np.array([0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 12.0], dtype=np.float32)
RNG = np.random.default_rng(3)
C_OBS = (DOSE[:, None] / 18.0 * (0.6 * np.exp(-1.6 * T_H[None, :]) + 0.4 * np.exp(-0.21 * T_H[None, :]))
         * np.exp(0.08 * RNG.standard_normal((6, 7)))).astype(np.float32)


@wp.kernel
def log_biexp(dose: wp.array(dtype=float), t: wp.array(dtype=float), p: wp.array(dtype=float),
              log_conc: wp.array2d(dtype=float)):
    i, j = wp.tid()
    v = p[0]
    f = p[3]
    c = dose[i] / v * (f * wp.exp(-p[1] * t[j]) + (1.0 - f) * wp.exp(-p[2] * t[j]))
    log_conc[i, j] = wp.log(c)


PARAMS0 = [16.0, 1.3, 0.25, 0.55]
FD_EPS = [1e-2, 1e-3, 1e-4, 1e-4]
dose_d = wp.array(DOSE, dtype=float)
t_d = wp.array(T_H, dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    log_conc = wp.zeros((6, 7), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(log_biexp, dim=(6, 7), inputs=[dose_d, t_d, params], outputs=[log_conc])
    r = log_conc.numpy().astype(np.float64) - np.log(C_OBS.astype(np.float64))
    loss = np.mean(r * r)
    seed = 2.0 * r / r.size
    tape.backward(grads={log_conc: wp.array(seed.astype(np.float32), dtype=float)})
    return loss, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"log-misfit {l:.5f}  grad {np.round(g, 4)}")
