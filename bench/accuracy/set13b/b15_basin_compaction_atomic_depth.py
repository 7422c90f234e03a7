"""Athy compaction parameters of a sedimentary column from a porosity log.

Twelve layers of known grain (solid) thickness are decompacted with the
Athy law; the burial depth of each layer midpoint is the running sum of the
thicknesses above it, and the predicted porosity there is compared with a
well-log porosity (helper _basin.py).
"""
import numpy as np
import warp as wp

import _basin as basin

NL = len(basin.SOLID_M)


@wp.kernel
def burial_depth(thick: wp.array(dtype=float), depth_acc: wp.array(dtype=float), z_mid: wp.array(dtype=float)):
    i = wp.tid()
    top = wp.atomic_add(depth_acc, 0, thick[i])  # expect: atomic_replay
    z_mid[i] = top + 0.5 * thick[i]


SOLID = wp.array(basin.SOLID_M, dtype=float)
ZS = wp.array(basin.Z_SOLID, dtype=float)


def predict_depths(prm):
    thick = wp.zeros(NL, dtype=float, requires_grad=True)
    depth_acc = wp.zeros(1, dtype=float, requires_grad=True)
    z_mid = wp.zeros(NL, dtype=float, requires_grad=True)
    wp.launch(basin.decompacted_thickness, dim=NL, inputs=[SOLID, ZS, prm], outputs=[thick])
    wp.launch(burial_depth, dim=NL, inputs=[thick, depth_acc], outputs=[z_mid])
    return z_mid


def porosity_log():
    prm = wp.array([0.62, 0.9], dtype=float)
    z = predict_depths(prm).numpy()
    return wp.array(0.62 * np.exp(-z / 900.0), dtype=float)


LOG_PHI = porosity_log()
PARAMS0 = [0.5, 1.2]
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        z_mid = predict_depths(prm)
        wp.launch(basin.porosity_log_misfit, dim=NL, inputs=[z_mid, prm, LOG_PHI], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(5):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.5f}  phi0 {p[0]:.4f}  lambda {p[1]:.4f} km  grad {g}")
        p = p - 0.004 * g
