# correct: the angle and torsion buffers are allocated without a requires_grad keyword, but with zeros_like of slices of the bond buffer, so they inherit requires_grad=True.
"""Fit the bonded parameters of united-atom butane (bond k_b, r0; angle k_theta,
theta0; threefold torsion k_phi) to 24 reference conformational energies. Each
term type is evaluated into its own (conformation x term) buffer, summed per
conformation and compared with the reference.
"""
import numpy as np
import warp as wp

from _butane import Topology, bond_angle, dihedral_angle, make_topology, reference_set


@wp.kernel
def bond_terms(x: wp.array2d(dtype=wp.vec3), top: Topology, prm: wp.array(dtype=float), e: wp.array2d(dtype=float)):
    c, b = wp.tid()
    r = wp.length(x[c, top.bonds[b, 0]] - x[c, top.bonds[b, 1]])
    e[c, b] = prm[0] * (r - prm[1]) * (r - prm[1])


@wp.kernel
def angle_terms(x: wp.array2d(dtype=wp.vec3), top: Topology, prm: wp.array(dtype=float), e: wp.array2d(dtype=float)):
    c, a = wp.tid()
    th = bond_angle(x[c, top.angles[a, 0]], x[c, top.angles[a, 1]], x[c, top.angles[a, 2]])
    e[c, a] = 0.5 * prm[2] * (th - prm[3]) * (th - prm[3])


@wp.kernel
def torsion_terms(x: wp.array2d(dtype=wp.vec3), top: Topology, prm: wp.array(dtype=float), e: wp.array2d(dtype=float)):
    c, d = wp.tid()
    q = top.dihedrals[d]
    phi = dihedral_angle(x[c, q[0]], x[c, q[1]], x[c, q[2]], x[c, q[3]])
    e[c, d] = prm[4] * (1.0 + wp.cos(3.0 * phi - wp.pi))


@wp.kernel
def total_energy(eb: wp.array2d(dtype=float), ea: wp.array2d(dtype=float), ed: wp.array2d(dtype=float),
                 e_tot: wp.array(dtype=float)):
    c = wp.tid()
    e = float(0.0)
    for k in range(eb.shape[1]):
        e += eb[c, k]
    for k in range(ea.shape[1]):
        e += ea[c, k]
    for k in range(ed.shape[1]):
        e += ed[c, k]
    e_tot[c] = e


@wp.kernel
def mse(e: wp.array(dtype=float), e_ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    r = e[c] - e_ref[c]
    wp.atomic_add(loss, 0, r * r / float(e.shape[0]))


CONFS, E_REF = reference_set(24, seed=2)
PARAMS0 = np.array([300.0, 1.52, 60.0, 1.95, 1.2])  # k_b, r0, k_theta, theta0, k_phi
FD_EPS = [0.1, 1e-4, 0.05, 1e-4, 1e-3]


def evaluate(p):
    top = make_topology()
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(CONFS, dtype=wp.vec3)
    e_ref = wp.array(E_REF, dtype=float)
    nc = len(CONFS)
    eb = wp.zeros((nc, 3), dtype=float, requires_grad=True)
    # angle and torsion buffers: same layout family, flags inherited from eb
    ea = wp.zeros_like(eb[:, :2])
    ed = wp.zeros_like(eb[:, :1])
    e_tot = wp.zeros(nc, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bond_terms, dim=(nc, 3), inputs=[x, top, prm], outputs=[eb])
        wp.launch(angle_terms, dim=(nc, 2), inputs=[x, top, prm], outputs=[ea])
        wp.launch(torsion_terms, dim=(nc, 1), inputs=[x, top, prm], outputs=[ed])
        wp.launch(total_energy, dim=nc, inputs=[eb, ea, ed], outputs=[e_tot])
        wp.launch(mse, dim=nc, inputs=[e_tot, e_ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"energy MSE {L:.4f}")
    print("gradient (k_b, r0, k_theta, theta0, k_phi):", g)
