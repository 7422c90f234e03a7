# correct: the no-grad clone of the dose table is only a QA copy; the PDD loss kernel reads the taped dose array itself
"""Megavoltage photon beam commissioning: fit the attenuation coefficient,
build-up length and output scaling of an analytic depth-dose model to water-tank
scans of four field sizes; the loss compares percentage depth doses."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

DEPTH = np.linspace(0.5, 25.0, 50).astype(np.float32)     # cm
FIELD = np.array([5.0, 10.0, 15.0, 20.0], dtype=np.float32)   # cm side


@wp.kernel
def depth_dose(p: wp.array(dtype=float), field: wp.array(dtype=float), depth: wp.array(dtype=float),
               dose: wp.array2d(dtype=float)):
    f, k = wp.tid()
    z = depth[k]
    scatter = 1.0 + 0.012 * field[f] * (1.0 - wp.exp(-z / 8.0))
    dose[f, k] = p[2] * (1.0 - wp.exp(-z / p[1])) * wp.exp(-p[0] * z) * scatter


@wp.kernel
def pdd_misfit(dose: wp.array2d(dtype=float), scan: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    f, k = wp.tid()
    r = 100.0 * dose[f, k] / dose[f, 3] - scan[f, k]
    wp.atomic_add(loss, 0, r * r / 200.0)


FIELD_W, DEPTH_W = wp.array(FIELD, dtype=float), wp.array(DEPTH, dtype=float)


def dose_table(p_w, requires_grad):
    dose = wp.zeros((len(FIELD), len(DEPTH)), dtype=float, requires_grad=requires_grad)
    wp.launch(depth_dose, dim=dose.shape, inputs=[p_w, FIELD_W, DEPTH_W], outputs=[dose])
    return dose


_d = dose_table(wp.array([0.048, 0.55, 1.0], dtype=float), False).numpy().astype(np.float64)
SCAN_NP = 100.0 * _d / _d[:, 3:4] + 0.2 * np.sin(np.arange(_d.size)).reshape(_d.shape)
SCAN = wp.array(SCAN_NP.astype(np.float32), dtype=float)
PARAMS0 = np.array([0.045, 0.6, 1.0])
FD_EPS = np.array([1e-4, 1e-3, 1e-3])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        dose = dose_table(p_w, True)
        dose_qa = wp.clone(dose, requires_grad=False)
        wp.launch(pdd_misfit, dim=dose.shape, inputs=[dose, SCAN], outputs=[loss])
    tape.backward(loss)
    d = dose.numpy().astype(np.float64)
    r = 100.0 * d / d[:, 3:4] - SCAN_NP
    return float(np.sum(r * r) / 200.0), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"PDD misfit {L:.5f}; grad [mu, z_buildup, output] = {g}")
    print(f"QA copy: dose at 10 cm, 10x10 field = {float(dose_table(wp.array(PARAMS0.astype(np.float32)), False).numpy()[1, 19]):.4f}")
