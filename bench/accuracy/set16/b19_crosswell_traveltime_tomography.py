"""Cross-well seismic tomography between two boreholes 60 m apart: fit a
layered velocity model (surface velocity, vertical gradient) plus the
amplitude of a Gaussian low-velocity zone (a gas-charged sand) to first-
arrival picks, with straight rays.

The slowness field lives on a 24 x 24 grid; each ray is sampled at 32
points and its travel time accumulated by atomic adds.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

NX = NZ = 24
WIDTH = DEPTH = 60.0  # m
N_SAMP = 32
SRC_Z = np.linspace(3.0, 57.0, 10)
REC_Z = np.linspace(3.0, 57.0, 10)
RAYS = np.array([(0.0, zs, WIDTH, zr) for zs in SRC_Z for zr in REC_Z], dtype=np.float32)
N_RAY = RAYS.shape[0]


@wp.kernel
def slowness_field(prm: wp.array(dtype=float), slow: wp.array2d(dtype=float)):
    ix, iz = wp.tid()
    x = (float(ix) + 0.5) * WIDTH / float(NX)
    z = (float(iz) + 0.5) * DEPTH / float(NZ)
    r2 = ((x - 32.0) * (x - 32.0) + (z - 35.0) * (z - 35.0)) / (9.0 * 9.0)
    v = prm[0] + prm[1] * z - prm[2] * wp.exp(-r2)  # m/ms
    slow[ix, iz] = 1.0 / v


@wp.kernel
def ray_traveltime(rays: wp.array2d(dtype=float), slow: wp.array2d(dtype=float), t: wp.array(dtype=float)):
    r, k = wp.tid()
    x0 = rays[r, 0]
    z0 = rays[r, 1]
    dx = rays[r, 2] - x0
    dz = rays[r, 3] - z0
    s = (float(k) + 0.5) / float(N_SAMP)
    ix = wp.min(int((x0 + s * dx) / WIDTH * float(NX)), NX - 1)
    iz = wp.min(int((z0 + s * dz) / DEPTH * float(NZ)), NZ - 1)
    ds = wp.sqrt(dx * dx + dz * dz) / float(N_SAMP)
    wp.atomic_add(t, r, slow[ix, iz] * ds)


@wp.kernel
def pick_misfit(t: wp.array(dtype=float), picks: wp.array(dtype=float), loss: wp.array(dtype=float)):
    r = wp.tid()
    d = (t[r] - picks[r]) / 0.05  # pick uncertainty 0.05 ms
    wp.atomic_add(loss, 0, d * d / float(N_RAY))


RAYS_W = wp.array(RAYS, dtype=float)


def traveltimes(prm):
    slow = wp.zeros((NX, NZ), dtype=float)  # expect: requires_grad
    t = wp.zeros(N_RAY, dtype=float, requires_grad=True)
    wp.launch(slowness_field, dim=(NX, NZ), inputs=[prm], outputs=[slow])
    wp.launch(ray_traveltime, dim=(N_RAY, N_SAMP), inputs=[RAYS_W, slow], outputs=[t])
    return t


PICKS = wp.array(traveltimes(wp.array([2.1, 0.012, 0.45], dtype=float)).numpy()
                 + 0.05 * np.random.default_rng(53).standard_normal(N_RAY).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        t = traveltimes(prm)
        wp.launch(pick_misfit, dim=N_RAY, inputs=[t, PICKS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([2.0, 0.010, 0.3])  # v0 (m/ms), dv/dz (1/ms), anomaly (m/ms)
FD_EPS = np.array([1e-3, 1e-5, 1e-3])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"pick misfit {f:.3f}; d/d(v0, dv/dz, dv_lvz) = {g}")
