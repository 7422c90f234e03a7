# correct: b04_colloid_cluster_yukawa_fit (the switching-shell branch of the Yukawa adjoint scales both derivatives by the switch)
"""Fit the effective charge and Debye screening of charged colloids to cluster energies.

Sixteen perturbed 13-particle icosahedral clusters (lengths in Bjerrum lengths)
interact through a screened-Coulomb (Yukawa) pair potential Z^2 exp(-kappa r) / r;
pairs beyond r_on are multiplied by a quintic switching function that takes the
potential smoothly to zero at r_cut. The switched potential has a hand-written
adjoint with one branch inside r_on and one in the switching shell. The fit runs
in a small class; the cutoff radii travel in a @wp.struct.
"""
import numpy as np
import warp as wp

from _clusters import N_ATOMS, N_CONF, configurations, reference_energies

wp.config.quiet = True


@wp.struct
class Cutoff:
    r_on: float
    r_cut: float


@wp.func
def switch(r: float, cut: Cutoff):
    t = (r - cut.r_on) / (cut.r_cut - cut.r_on)
    return 1.0 - t * t * t * (10.0 - 15.0 * t + 6.0 * t * t)


@wp.func
def yukawa_switched(r: float, z: float, kappa: float, cut: Cutoff):
    v = z * z * wp.exp(-kappa * r) / r
    if r < cut.r_on:
        return v
    else:
        return v * switch(r, cut)


@wp.func_grad(yukawa_switched)
def adj_yukawa_switched(r: float, z: float, kappa: float, cut: Cutoff, adj_ret: float):
    v = z * z * wp.exp(-kappa * r) / r
    if r < cut.r_on:
        wp.adjoint[z] += adj_ret * 2.0 * v / z
        wp.adjoint[kappa] += -adj_ret * r * v
    else:
        sw = switch(r, cut)
        wp.adjoint[z] += adj_ret * 2.0 * v * sw / z
        wp.adjoint[kappa] += -adj_ret * r * v * sw


@wp.kernel
def cluster_energy(x: wp.array2d(dtype=wp.vec3), prm: wp.array(dtype=float), cut: Cutoff,
                   energy: wp.array(dtype=float)):
    c, i, j = wp.tid()
    if j > i:
        r = wp.length(x[c, i] - x[c, j])
        wp.atomic_add(energy, c, yukawa_switched(r, prm[0], prm[1], cut))


@wp.kernel
def energy_misfit(energy: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    d = energy[c] - ref[c]
    wp.atomic_add(loss, 0, d * d)


class PairPotentialFit:
    def __init__(self):
        self.x = wp.array(configurations(), dtype=wp.vec3)
        self.ref = wp.array(reference_energies(configurations()), dtype=float)
        self.cut = Cutoff()
        self.cut.r_on = 4.2
        self.cut.r_cut = 8.8

    def loss_and_grad(self, p):
        prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        energy = wp.zeros(N_CONF, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(cluster_energy, dim=(N_CONF, N_ATOMS, N_ATOMS), inputs=[self.x, prm, self.cut], outputs=[energy])
            wp.launch(energy_misfit, dim=N_CONF, inputs=[energy, self.ref], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


PARAMS0 = np.array([1.05, 0.36])  # Z, kappa [1 / Bjerrum length]
FD_EPS = np.array([1e-3, 1e-4])
_FIT = PairPotentialFit()


def evaluate(p):
    return _FIT.loss_and_grad(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"energy misfit {L:.5f} (kT)^2 over {N_CONF} clusters; d/d(Z, kappa) = {g}")
