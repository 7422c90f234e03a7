# correct: a helper module is compiled with enable_backward=False, but its kernel only histograms pair distances for a report after backward; the taped energy kernel lives in a module with adjoints.
"""Morse (D, alpha, r0) parameters of a 13-atom icosahedral cluster fitted to a
target cohesive energy with a few plain gradient-descent steps. The cluster's
pair-distance peaks are reported with the analysis module _rdf_analysis.py.
"""
import numpy as np
import warp as wp

from _rdf_analysis import rdf_peaks

E_TARGET = -3.4


@wp.kernel
def morse_cluster_energy(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), e: wp.array(dtype=float)):
    """Morse energy per atom: prm = (D, alpha, r0)."""
    i, j = wp.tid()
    if j > i:
        r = wp.length(x[i] - x[j])
        ex = wp.exp(-prm[1] * (r - prm[2]))
        wp.atomic_add(e, 0, prm[0] * (ex * ex - 2.0 * ex) / float(x.shape[0]))


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
    evaluate.peaks = rdf_peaks(x)
    evaluate.e_coh = float(e.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        if it == 0:
            print("pair-distance peaks:", np.round(evaluate.peaks, 3))
        print(f"iter {it}: E_coh = {evaluate.e_coh:.4f} loss {L:.5f} (D, alpha, r0) = {np.round(p, 4)} grad {np.round(g, 4)}")
        p = p - 0.02 * g
