# correct: backward() is seeded by hand over per-sensor terms, with exactly the weights the program's objective uses
"""Calibrate the emissivity of a radiating plate strip (1-D, radiation to
ambient ~ eps * T^4) from three sensors with different trust weights; the
objective is the weighted sum of per-sensor squared errors.
"""
import numpy as np
import warp as wp

CELLS = 16
STEPS = 30
DT = 0.02
T_AMB = 0.3


@wp.kernel
def radiate_conduct(T: wp.array(dtype=float), params: wp.array(dtype=float), T_out: wp.array(dtype=float)):
    i = wp.tid()
    tl = T[wp.max(i - 1, 0)]
    tr = T[wp.min(i + 1, CELLS - 1)]
    t = T[i]
    rad = params[0] * (t * t * t * t - T_AMB * T_AMB * T_AMB * T_AMB)
    T_out[i] = t + DT * (params[1] * (tl - 2.0 * t + tr) * 40.0 - rad)


@wp.kernel
def sensor_terms(T: wp.array(dtype=float), cells: wp.array(dtype=wp.int32), readings: wp.array(dtype=float),
                 terms: wp.array(dtype=float)):
    k = wp.tid()
    d = T[cells[k]] - readings[k]
    terms[k] = d * d


WEIGHTS = np.array([1.0, 0.25, 2.0], dtype=np.float32)
cells = wp.array([2, 8, 13], dtype=wp.int32)
readings = wp.array([1.1, 1.0, 0.85], dtype=float)
T_INIT = np.linspace(1.8, 1.0, CELLS).astype(np.float32)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    T = wp.array(T_INIT, dtype=float, requires_grad=True)
    terms = wp.zeros(3, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            T1 = wp.empty_like(T)
            wp.launch(radiate_conduct, dim=CELLS, inputs=[T, params], outputs=[T1])
            T = T1
        wp.launch(sensor_terms, dim=3, inputs=[T, cells, readings], outputs=[terms])
    objective = float(WEIGHTS @ terms.numpy())
    tape.backward(grads={terms: wp.array(WEIGHTS, dtype=float)})
    return objective, params.grad.numpy().copy()


PARAMS0 = np.array([0.6, 0.2])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("weighted misfit", l, "d/d(emissivity, conductivity)", g)
