# correct: the Coulomb 1/r term would be infinite on the self pair, but each thread's loop skips j == i with an if, so 1/r is never evaluated (or differentiated) at r = 0.
"""Born-Mayer-Huggins model of a (NaCl)_4 cube cluster: sensitivity of the binding
energy to the charge scale q, the Born-Mayer prefactor A and the softness rho
(reduced units). One thread per ion sums over its partners.
"""
import numpy as np
import warp as wp


@wp.kernel
def bmh_energy(x: wp.array(dtype=wp.vec3), charge: wp.array(dtype=float), prm: wp.array(dtype=float),
               e: wp.array(dtype=float)):
    i = wp.tid()
    for j in range(x.shape[0]):
        if j != i:
            r = wp.length(x[i] - x[j])
            qq = prm[0] * prm[0] * charge[i] * charge[j]
            wp.atomic_add(e, 0, 0.5 * (qq / r + prm[1] * wp.exp(-r / prm[2])))


g = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=float)
X = (1.25 * g + 0.03 * np.random.default_rng(5).standard_normal(g.shape)).astype(np.float32)
CHARGE = np.array([1.0 if (a + b + c) % 2 == 0 else -1.0 for a, b, c in g.astype(int)], dtype=np.float32)
PARAMS0 = np.array([1.0, 20.0, 0.3])  # q scale, A, rho
FD_EPS = [1e-3, 1e-2, 1e-4]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X, dtype=wp.vec3)
    q = wp.array(CHARGE, dtype=float)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bmh_energy, dim=len(X), inputs=[x, q, prm], outputs=[e])
    tape.backward(e)
    return float(e.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    print(f"E_bind = {E:.4f}; dE/d(q, A, rho) = {g}")
