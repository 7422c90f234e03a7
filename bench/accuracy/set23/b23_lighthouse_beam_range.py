"""Lighthouse luminous range: lamp intensity through a Fresnel lens, atmospheric extinction and geographic horizon (Allard's law, linearised)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_NIGHT = 20
rng = np.random.default_rng(33)
VIS = rng.uniform(8.0, 30.0, N_NIGHT).astype(np.float32)     # meteorological visibility km
SIGHT = rng.uniform(10.0, 26.0, N_NIGHT).astype(np.float32)  # reported sighting distance km
PARAMS0 = [1.5, 0.8]  # lens gain (log10 cd), observer threshold factor


@wp.kernel
def lens_intensity(p: wp.array(dtype=float), vis: wp.array(dtype=float), log_i: wp.array(dtype=float)):
    i = wp.tid()
    log_i[i] = 4.0 + p[0] + 0.02 * vis[i]


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def luminous_range(p: wp.array(dtype=float), log_i: wp.array(dtype=float), vis: wp.array(dtype=float),
                   rng_km: wp.array(dtype=float)):
    i = wp.tid()
    att = 3.0 / vis[i]
    rng_km[i] = (log_i[i] + wp.log(p[1]) + 0.3) / (att + 0.05)


@wp.kernel
def misfit(r: wp.array(dtype=float), sight: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = (r[i] - sight[i]) / 10.0
    wp.atomic_add(loss, 0, e * e / float(N_NIGHT))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    vis = wp.array(VIS, dtype=float)
    log_i = wp.zeros(N_NIGHT, dtype=float, requires_grad=True)
    rng_km = wp.zeros(N_NIGHT, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lens_intensity, dim=N_NIGHT, inputs=[params, vis], outputs=[log_i])
        wp.launch(luminous_range, dim=N_NIGHT, inputs=[params, log_i, vis], outputs=[rng_km])
        wp.launch(misfit, dim=N_NIGHT, inputs=[rng_km, wp.array(SIGHT, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("lighthouse loss", loss, "params", p)
