# correct: the gather kernel calls wp.atomic_add on a per-molecule counter, but only to count atoms for a host-side check; the table column comes from the topology's site index.
"""Three-site water model: fit the hydrogen charge q_H (q_O = -2 q_H) and an O-H
bond-length scale to a target molecular dipole of 0.0487 e nm (2.34 D) over
a box of 6 rigid molecules. Atoms are gathered into a (molecule x site) table for
the dipole kernel, each atom going to the column of its site index.
"""
import numpy as np
import warp as wp

N_MOL = 6
MU_TARGET = 0.0487


@wp.kernel
def gather_sites(x: wp.array(dtype=wp.vec3), mol: wp.array(dtype=int), site: wp.array(dtype=int),
                 x_oxygen: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), fill: wp.array(dtype=int),
                 site_x: wp.array2d(dtype=wp.vec3), site_q: wp.array2d(dtype=float)):
    i = wp.tid()
    m = mol[i]
    q = prm[0]
    if site[i] == 0:
        q = -2.0 * prm[0]
    wp.atomic_add(fill, m, 1)  # atoms per molecule, checked on the host
    slot = site[i]
    site_x[m, slot] = x_oxygen[m] + prm[1] * (x[i] - x_oxygen[m])
    site_q[m, slot] = q


@wp.kernel
def dipole_loss(site_x: wp.array2d(dtype=wp.vec3), site_q: wp.array2d(dtype=float), target: float,
                loss: wp.array(dtype=float)):
    m = wp.tid()
    mu = wp.vec3()
    for s in range(3):
        mu += site_q[m, s] * site_x[m, s]
    dev = wp.length(mu) - target
    wp.atomic_add(loss, 0, dev * dev / float(site_x.shape[0]))


def water_box(seed):
    rng = np.random.default_rng(seed)
    r_oh, th = 0.09572, np.deg2rad(104.52)
    local = np.array([[0, 0, 0], [r_oh, 0, 0], [r_oh * np.cos(th), r_oh * np.sin(th), 0]])
    xs, mol, site = [], [], []
    for m in range(N_MOL):
        q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
        centre = rng.uniform(0, 1.0, 3)
        for s in range(3):
            xs.append(centre + local[s] @ q.T)
            mol.append(m)
            site.append(s)
    # atoms listed in shuffled order, as they come out of a domain-decomposed MD code
    order = rng.permutation(len(xs))
    return (np.array(xs, dtype=np.float32)[order], np.array(mol, dtype=np.int32)[order],
            np.array(site, dtype=np.int32)[order])


X, MOL, SITE = water_box(3)
X_O = np.array([X[(MOL == m) & (SITE == 0)][0] for m in range(N_MOL)], dtype=np.float32)
PARAMS0 = np.array([0.41, 1.0])  # q_H, O-H length scale
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X, dtype=wp.vec3)
    fill = wp.zeros(N_MOL, dtype=int)
    site_x = wp.zeros((N_MOL, 3), dtype=wp.vec3, requires_grad=True)
    site_q = wp.zeros((N_MOL, 3), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gather_sites, dim=len(X), inputs=[x, wp.array(MOL, dtype=int), wp.array(SITE, dtype=int),
                                                     wp.array(X_O, dtype=wp.vec3), prm, fill],
                  outputs=[site_x, site_q])
        wp.launch(dipole_loss, dim=N_MOL, inputs=[site_x, site_q, MU_TARGET], outputs=[loss])
    assert np.all(fill.numpy() == 3), "incomplete molecule"
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        print(f"iter {it}: loss {L:.3e} (q_H, scale) = {np.round(p, 4)} grad {g}")
        p = p - 200.0 * g
