"""Transcription-factor titration: a reporter's response to six inducer
doses in four strains is fitted with a Hill (n = 2) activation curve.

The Hill function carries a hand-written adjoint (the closed form is cheaper
than differentiating the quotient); (K, vmax, leak) are fitted by least squares.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DOSES = np.array([0.05, 0.1, 0.3, 1.0, 3.0, 10.0], dtype=np.float32)
STRAIN_GAIN = np.array([0.8, 1.0, 1.1, 1.3], dtype=np.float32)
RESPONSE = np.array([[0.09, 0.12, 0.35, 0.75, 0.90, 0.95], [0.11, 0.15, 0.42, 0.93, 1.12, 1.19],
                     [0.12, 0.17, 0.47, 1.03, 1.24, 1.30], [0.13, 0.20, 0.55, 1.21, 1.46, 1.54]], dtype=np.float32)


@wp.func
def hill2(x: float, k: float):
    return x * x / (k * k + x * x)


@wp.func_grad(hill2)
def adj_hill2(x: float, k: float, adj_ret: float):
    den = k * k + x * x
    wp.adjoint[x] += adj_ret * 2.0 * x * k * k / (den * den)
    wp.adjoint[k] += adj_ret * (-k * x * x / (den * den))  # expect: custom_adjoint


@wp.kernel
def titration_misfit(dose: wp.array(dtype=float), gain: wp.array(dtype=float), obs: wp.array2d(dtype=float),
                     prm: wp.array(dtype=float), loss: wp.array(dtype=float)):
    s, d = wp.tid()
    pred = prm[2] + gain[s] * prm[1] * hill2(dose[d], prm[0])
    r = 10.0 * (pred - obs[s, d])
    wp.atomic_add(loss, 0, r * r)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(titration_misfit, dim=RESPONSE.shape,
                  inputs=[wp.array(DOSES, dtype=float), wp.array(STRAIN_GAIN, dtype=float),
                          wp.array(RESPONSE, dtype=float), prm], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.5, 1.0, 0.05])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        l, g = evaluate(p)
        p = p - 0.002 * g
    print(f"SSE {l:.4f}; K, vmax, leak = {p}")
