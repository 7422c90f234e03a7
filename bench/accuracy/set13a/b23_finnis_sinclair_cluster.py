"""Finnis-Sinclair (EAM-type) model of a 13-atom icosahedral metal cluster: the
embedding strength A, density decay beta and pair repulsion C are tuned so that the
cohesive energy per atom matches a target. Each thread sums its atom's electron
density over neighbours and adds its embedding energy -A sqrt(rho).
"""
import numpy as np
import warp as wp

E_TARGET = -2.9


@wp.kernel
def fs_energy(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    rho = float(0.0)
    for j in range(n):  # expect: dynamic_loop
        if j != i:
            r = wp.length(x[i] - x[j])
            rho += wp.exp(-prm[1] * (r - 1.0))
            wp.atomic_add(e, 0, 0.5 * prm[2] * wp.exp(-2.0 * prm[1] * (r - 1.0)) / float(n))
    wp.atomic_add(e, 0, -prm[0] * wp.sqrt(rho) / float(n))


@wp.kernel
def target_loss(e: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
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


N_ATOMS = 13
X = icosahedron(1.0) + 0.02 * np.random.default_rng(3).standard_normal((N_ATOMS, 3)).astype(np.float32)
PARAMS0 = np.array([1.0, 2.0, 0.5])  # A, beta, C
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X, dtype=wp.vec3)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fs_energy, dim=N_ATOMS, inputs=[x, prm], outputs=[e])
        wp.launch(target_loss, dim=1, inputs=[e, E_TARGET], outputs=[loss])
    tape.backward(loss)
    evaluate.e_coh = float(e.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        print(f"iter {it}: E_coh = {evaluate.e_coh:.4f} loss {L:.5f} grad {np.round(g, 4)}")
        p = p - 0.05 * g
