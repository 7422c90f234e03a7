"""Equation of state of a periodic LJ solid: derivative of the potential energy per
atom with respect to the box length L (the virial pressure, P = -dE/dV) and to
epsilon. Pairs within the cutoff are compacted into a worst-case sized pair buffer
by the distance kernel; the energy kernel then runs over that buffer.
"""
import numpy as np
import warp as wp

from _lj import lj_energy, min_image

N_SIDE = 3
N = N_SIDE ** 3
RC = 2.5


@wp.kernel
def compact_pairs(frac: wp.array(dtype=wp.vec3), L: wp.array(dtype=float), rc: float,
                  count: wp.array(dtype=int), pair_r2: wp.array(dtype=float)):
    i, j = wp.tid()
    if j > i:
        d = min_image((frac[i] - frac[j]) * L[0], L[0])
        r2 = wp.dot(d, d)
        if r2 < rc * rc:
            slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
            if slot >= 0 and slot < pair_r2.shape[0]:
                pair_r2[slot] = r2


@wp.kernel
def pair_energy_sum(pair_r2: wp.array(dtype=float), ff: wp.array(dtype=float), n_atoms: int, e: wp.array(dtype=float)):
    k = wp.tid()
    r2 = pair_r2[k]
    if r2 > 0.0:  # unused slots stay zero
        wp.atomic_add(e, 0, lj_energy(r2, ff[0], ff[1]) / float(n_atoms))


rng = np.random.default_rng(4)
_g = (np.arange(N_SIDE) + 0.5) / N_SIDE
FRAC = np.array(np.meshgrid(_g, _g, _g, indexing="ij")).reshape(3, -1).T
FRAC = (FRAC + 0.02 * rng.standard_normal(FRAC.shape)).astype(np.float32)
PARAMS0 = np.array([4.2, 1.0])  # box length L, epsilon
FD_EPS = [1e-3, 1e-3]


def evaluate(p):
    L = wp.array([p[0]], dtype=float, requires_grad=True)
    ff = wp.array([p[1], 1.0], dtype=float, requires_grad=True)
    frac = wp.array(FRAC, dtype=wp.vec3)
    count = wp.zeros(1, dtype=int)
    pair_r2 = wp.zeros(N * N, dtype=float, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(compact_pairs, dim=(N, N), inputs=[frac, L, RC], outputs=[count, pair_r2])
        wp.launch(pair_energy_sum, dim=N * N, inputs=[pair_r2, ff, N], outputs=[e])
    tape.backward(e)
    return float(e.numpy()[0]), np.array([L.grad.numpy()[0], ff.grad.numpy()[0]], dtype=np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    V = PARAMS0[0] ** 3
    print(f"E/N = {E:.4f}; dE/dL per atom = {g[0]:.4f} -> virial pressure P = {-N * g[0] / (3 * PARAMS0[0] ** 2):.4f}; "
          f"dE/deps = {g[1]:.4f}")
