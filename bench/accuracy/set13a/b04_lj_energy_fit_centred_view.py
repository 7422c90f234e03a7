"""Fit Lennard-Jones (epsilon, sigma) to reference energies of 16 argon trimers:
mean squared energy error and its gradient, then a few gradient steps.

Before the backward pass the script prepares a parity plot and centres the
reference energies for it.
"""
import numpy as np
import warp as wp

from _refdata import reference_energy, trimer_configs


@wp.func
def lj(r2: float, eps: float, sigma: float):
    s6 = wp.pow(sigma * sigma / r2, 3.0)
    return 4.0 * eps * (s6 * s6 - s6)


@wp.kernel
def cluster_energy(x: wp.array2d(dtype=wp.vec3), ff: wp.array(dtype=float), e: wp.array(dtype=float)):
    c, i = wp.tid()
    for j in range(i + 1, x.shape[1]):
        d = x[c, i] - x[c, j]
        wp.atomic_add(e, c, lj(wp.dot(d, d), ff[0], ff[1]))


@wp.kernel
def mse(e: wp.array(dtype=float), e_ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    r = e[c] - e_ref[c]
    wp.atomic_add(loss, 0, r * r / float(e.shape[0]))


CONFS = trimer_configs(16, seed=21)
E_REF = np.array([reference_energy(x) for x in CONFS], dtype=np.float32)
PARAMS0 = np.array([0.9, 1.0])
FD_EPS = [1e-3, 2.5e-4]


def evaluate(p, show=False):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(CONFS, dtype=wp.vec3)
    e_ref = wp.array(E_REF, dtype=float)
    e = wp.zeros(len(CONFS), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cluster_energy, dim=(len(CONFS), 3), inputs=[x, ff], outputs=[e])
        wp.launch(mse, dim=len(CONFS), inputs=[e, e_ref], outputs=[loss])
    # parity plot data: energies relative to their mean
    ref_view = e_ref.numpy()
    ref_view -= ref_view.mean()  # expect: untaped_write
    pred = e.numpy() - e.numpy().mean()
    if show:
        print("parity (ref, model):", np.round(np.stack([ref_view, pred], 1)[:4], 3).tolist())
    tape.backward(loss)
    return float(loss.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        L, g = evaluate(p, show=(it == 0))
        print(f"iter {it}: mse {L:.5f} grad {g}")
        p = p - 0.02 * g
