"""Morse (D, alpha, r0) parameters of a 13-atom icosahedral cluster fitted to a
target cohesive energy with a few plain gradient-descent steps. The
energy kernel comes from the shared module _morse_kernels.py.
"""
import numpy as np
import warp as wp

from _morse_kernels import morse_cluster_energy

E_TARGET = -3.4


@wp.kernel
def squared_error(e: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    loss[0] = (e[0] - target) * (e[0] - target)


def icosahedron(r):
    phi = (1 + 5 ** 0.5) / 2
    v = []
    for a in (-1, 1):
        for b in (-phi, phi):
            v += [(0, a, b), (a, b, 0), (b, 0, a)]
    v = np.array(v, dtype=float)
    v *= r / np.linalg.norm(v[0])
    return np.vstack([np.zeros(3), v]).astype(np.float32)


X = icosahedron(1.05)
PARAMS0 = np.array([1.0, 3.0, 1.1])  # D, alpha, r0
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X, dtype=wp.vec3)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(morse_cluster_energy, dim=(len(X), len(X)), inputs=[x, prm], outputs=[e])
        wp.launch(squared_error, dim=1, inputs=[e, E_TARGET], outputs=[loss])
    tape.backward(loss)
    evaluate.e_coh = float(e.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        print(f"iter {it}: E_coh = {evaluate.e_coh:.4f} loss {L:.5f} (D, alpha, r0) = {np.round(p, 4)} grad {np.round(g, 4)}")
        p = p - 0.02 * g
