"""Ring-road traffic (LWR with the Greenshields fundamental diagram): fit the
free-flow speed and the jam density to loop-detector densities and to the
cumulative vehicle count at the toll gantry.

Finite volumes, local Lax-Friedrichs fluxes; a vehicle counter integrates
the flux through the gantry face in place.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 40
DX = 0.1  # km
DT = 1.0 / 1800.0  # h (2 s)
N_STEPS = 50
DETECTORS = np.array([5, 15, 25, 35], dtype=np.int32)
N_DET = DETECTORS.size
GANTRY = 20


@wp.func
def greenshields(rho: float, vf: float, rho_jam: float):
    return vf * rho * (1.0 - rho / rho_jam)


@wp.kernel
def lf_flux(rho: wp.array(dtype=float), prm: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()  # face between cell i and cell i + 1
    r_l = rho[i]
    r_r = rho[(i + 1) % N_CELL]
    f_l = greenshields(r_l, prm[0], prm[1])
    f_r = greenshields(r_r, prm[0], prm[1])
    flux[i] = 0.5 * (f_l + f_r) - 0.5 * prm[0] * (r_r - r_l)


@wp.kernel
def conserve(rho: wp.array(dtype=float), flux: wp.array(dtype=float), rho_out: wp.array(dtype=float)):
    i = wp.tid()
    rho_out[i] = rho[i] - DT / DX * (flux[i] - flux[(i + N_CELL - 1) % N_CELL])


@wp.kernel
def count_vehicles(flux: wp.array(dtype=float), count: wp.array(dtype=float)):
    count[0] = count[0] + DT * flux[GANTRY]


@wp.kernel
def detector_misfit(rho: wp.array(dtype=float), det: wp.array(dtype=int), obs: wp.array2d(dtype=float), n: int,
                    loss: wp.array(dtype=float)):
    k = wp.tid()
    d = (rho[det[k]] - obs[n, k]) / 10.0
    wp.atomic_add(loss, 0, d * d / float(N_STEPS * N_DET))


@wp.kernel
def count_misfit(count: wp.array(dtype=float), obs: float, loss: wp.array(dtype=float)):
    d = (count[0] - obs) / 5.0
    wp.atomic_add(loss, 0, d * d)


RHO0 = (30.0 + 45.0 * np.exp(-((np.arange(N_CELL) - 12.0) / 4.0) ** 2)).astype(np.float32)  # veh/km
DET_W = wp.array(DETECTORS, dtype=int)


class RingRoad:
    def __init__(self, prm):
        self.prm = prm

    def advance(self, rho, flux):
        out = rho  # expect: overwrite
        wp.launch(conserve, dim=N_CELL, inputs=[rho, flux], outputs=[out])
        return out

    def run(self, obs=None, loss=None):
        rg = self.prm.requires_grad
        rho = wp.array(RHO0, dtype=float, requires_grad=rg)
        count = wp.zeros(1, dtype=float, requires_grad=rg)
        densities = []
        for n in range(N_STEPS):
            flux = wp.zeros(N_CELL, dtype=float, requires_grad=rg)
            wp.launch(lf_flux, dim=N_CELL, inputs=[rho, self.prm], outputs=[flux])
            wp.launch(count_vehicles, dim=1, inputs=[flux], outputs=[count])
            rho = self.advance(rho, flux)
            if loss is None:
                densities.append(rho.numpy()[DETECTORS])
            else:
                wp.launch(detector_misfit, dim=N_DET, inputs=[rho, DET_W, obs[0], n], outputs=[loss])
        if loss is not None:
            wp.launch(count_misfit, dim=1, inputs=[count, obs[1]], outputs=[loss])
        return np.array(densities), float(count.numpy()[0])


_dens, _count = RingRoad(wp.array([95.0, 160.0], dtype=float)).run()
OBS = (wp.array(_dens + np.random.default_rng(6).normal(0.0, 1.0, _dens.shape).astype(np.float32), dtype=float),
       _count + 1.0)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        RingRoad(prm).run(OBS, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([88.0, 150.0])  # free-flow speed km/h, jam density veh/km
FD_EPS = 1e-2

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"detector + gantry misfit {f:.4f}; d/d(v_f, rho_jam) = {g}")
