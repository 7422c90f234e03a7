# correct: the hand-written Sellmeier adjoint accumulates the exact derivative dn/dB1 = (l2 / (l2 - C1)) / (2 n) with +=.
"""Sellmeier coefficient and apex angle of a glass prism from minimum-deviation data.

Minimum deviation D = 2 asin(n sin(A/2)) - A is measured at five spectral lines; the
index n(lambda) follows a three-term Sellmeier law whose first coefficient B1 is
fitted (B2, B3 and the resonances fixed at N-BK7 values), together with the apex A.
The Sellmeier index has a hand-written adjoint (@wp.func_grad).
"""
import numpy as np
import warp as wp

LAMS = np.array([0.4358, 0.4861, 0.5461, 0.5876, 0.6563], dtype=np.float32)  # um
C1 = 0.00600069867
B2 = 0.231792344
C2 = 0.0200179144
B3 = 1.01046945
C3 = 103.560653
PARAMS0 = np.array([1.02, 1.045])  # B1, apex A (rad)
FD_EPS = 1e-4


@wp.func
def sellmeier(lam: float, b1: float):
    l2 = lam * lam
    return wp.sqrt(1.0 + b1 * l2 / (l2 - C1) + B2 * l2 / (l2 - C2) + B3 * l2 / (l2 - C3))


@wp.func_grad(sellmeier)
def adj_sellmeier(lam: float, b1: float, adj_ret: float):
    l2 = lam * lam
    n = sellmeier(lam, b1)
    wp.adjoint[b1] += adj_ret * l2 / (l2 - C1) / (2.0 * n)
    dn2 = -2.0 * lam * (b1 * C1 / ((l2 - C1) * (l2 - C1)) + B2 * C2 / ((l2 - C2) * (l2 - C2)) + B3 * C3 / ((l2 - C3) * (l2 - C3)))
    wp.adjoint[lam] += adj_ret * dn2 / (2.0 * n)


@wp.kernel
def deviation_misfit(lam: wp.array(dtype=float), prm: wp.array(dtype=float), meas: wp.array(dtype=float),
                     loss: wp.array(dtype=float)):
    i = wp.tid()
    n = sellmeier(lam[i], prm[0])
    A = prm[1]
    D = 2.0 * wp.asin(n * wp.sin(0.5 * A)) - A
    d = D - meas[i]
    wp.atomic_add(loss, 0, d * d * 1.0e4)


def _measured():
    l2 = LAMS.astype(np.float64) ** 2
    n = np.sqrt(1 + 1.03961212 * l2 / (l2 - C1) + B2 * l2 / (l2 - C2) + B3 * l2 / (l2 - C3))
    A = np.radians(60.0)
    return (2 * np.arcsin(n * np.sin(A / 2)) - A).astype(np.float32)


MEAS = _measured()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(deviation_misfit, dim=len(LAMS), inputs=[wp.array(LAMS, dtype=float), prm, wp.array(MEAS, dtype=float)],
                  outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"deviation misfit {L:.4f} (1e-4 rad^2); d/d(B1, A) = {g}")
