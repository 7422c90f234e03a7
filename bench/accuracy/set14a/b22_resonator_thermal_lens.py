"""TEM00 mode size of a diode-pumped laser resonator with a pump-dependent thermal lens.

Flat output coupler next to the gain rod (thermal lens f_th = K / P), curved high
reflector of radius R at distance L, used at a small fold angle (tangential plane). The round-trip ABCD matrix is built from the
empty cavity and then corrected for the thermal lens; the mode radius at the rod,
w^2 = (lambda |B| / pi) / sqrt(1 - ((A + D) / 2)^2), is matched to the pump spot
for three pump powers by choosing (R, L).
"""
import numpy as np
import warp as wp

LAM = 1.064e-3           # mm
K_TH = 3000.0            # mm W
POWERS = np.array([5.0, 8.0, 12.0], dtype=np.float32)  # W
W_PUMP = 0.32            # mm
FOLD = wp.constant(0.12)  # rad, fold angle at the high reflector (tangential plane)
PARAMS0 = np.array([500.0, 180.0])  # R, L (mm)
FD_EPS = [0.5, 0.2]


@wp.func
def propagate(L: float):
    return wp.mat22(1.0, L, 0.0, 1.0)


@wp.kernel
def mode_radius(prm: wp.array(dtype=float), power: wp.array(dtype=float), lam: float, k_th: float, w_pump: float,
                loss: wp.array(dtype=float)):
    i = wp.tid()
    mirror = wp.mat22(1.0, 0.0, -2.0 / prm[0], 1.0)
    mirror[1, 0] = mirror[1, 0] / wp.cos(FOLD)  # expect: component_reassign
    M = propagate(prm[1]) @ mirror @ propagate(prm[1])
    f_th = k_th / power[i]
    M[1, 0] -= M[0, 0] / f_th
    M[1, 1] -= M[0, 1] / f_th
    m = 0.5 * (M[0, 0] + M[1, 1])
    w2 = lam * wp.abs(M[0, 1]) / wp.pi / wp.sqrt(1.0 - m * m)
    d = wp.sqrt(w2) - w_pump
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(mode_radius, dim=len(POWERS), inputs=[prm, wp.array(POWERS, dtype=float), LAM, K_TH, W_PUMP],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mode mismatch {L:.3e} mm^2; d/d(R, L) = {g}")
