# correct: pairs within the cutoff are compacted with the return value of wp.atomic_add, but the compacted list holds only integer indices, built before recording; the taped kernel recomputes the distances from them.
"""Equation of state of a periodic LJ solid: derivative of the potential energy per
atom with respect to the box length L (the virial pressure, P = -dE/dV) and to
epsilon. A Verlet list of atom-index pairs (cutoff + skin) is compacted once,
off the tape; the taped energy kernel runs over the list.
"""
import numpy as np
import warp as wp

from _lj import lj_energy, min_image

N_SIDE = 3
N = N_SIDE ** 3
RC = 2.5
SKIN = 0.3


@wp.kernel
def build_verlet_list(frac: wp.array(dtype=wp.vec3), L: float, r_list: float,
                      count: wp.array(dtype=int), pairs: wp.array(dtype=wp.vec2i)):
    i, j = wp.tid()
    if j > i:
        d = min_image((frac[i] - frac[j]) * L, L)
        if wp.dot(d, d) < r_list * r_list:
            slot = wp.atomic_add(count, 0, 1)
            if slot < pairs.shape[0]:
                pairs[slot] = wp.vec2i(i, j)


@wp.kernel
def list_energy(frac: wp.array(dtype=wp.vec3), pairs: wp.array(dtype=wp.vec2i), L: wp.array(dtype=float),
                ff: wp.array(dtype=float), rc: float, n_atoms: int, e: wp.array(dtype=float)):
    k = wp.tid()
    p = pairs[k]
    d = min_image((frac[p[0]] - frac[p[1]]) * L[0], L[0])
    r2 = wp.dot(d, d)
    if r2 < rc * rc:
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
    pairs = wp.zeros(N * N, dtype=wp.vec2i)
    wp.launch(build_verlet_list, dim=(N, N), inputs=[frac, float(p[0]), RC + SKIN], outputs=[count, pairs])
    n_pairs = int(count.numpy()[0])
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(list_energy, dim=n_pairs, inputs=[frac, pairs, L, ff, RC, N], outputs=[e])
    tape.backward(e)
    return float(e.numpy()[0]), np.array([L.grad.numpy()[0], ff.grad.numpy()[0]], dtype=np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    print(f"E/N = {E:.4f}; dE/dL per atom = {g[0]:.4f} -> virial pressure P = {-N * g[0] / (3 * PARAMS0[0] ** 2):.4f}; "
          f"dE/deps = {g[1]:.4f}")
