# correct: thaw-depth fit that loops over the constant MAX_WEEKS (unrolled) and masks the weeks past each site's season.
"""Active-layer thaw depth at seven permafrost boreholes (Stefan stepping).

Thaw depth z advances each week by dz = kappa * nf * T_air / z over the
weeks since snowmelt at each site (the thaw season length differs by
site). The thermal factor kappa and the surface n-factor nf are fitted to
end-of-season probe depths.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SITE = 7
MAX_WEEKS = wp.constant(12)
RNG = np.random.default_rng(8)
T_AIR = RNG.uniform(2.0, 14.0, (N_SITE, 12)).astype(np.float32)  # weekly mean, deg C
N_WEEKS = np.array([12, 9, 10, 7, 11, 8, 12], dtype=np.int32)
T_AIR[np.arange(12)[None, :] >= N_WEEKS[:, None]] = 0.0  # logger columns after freeze-up are zero
Z_OBS = np.array([0.92, 0.71, 0.80, 0.58, 0.85, 0.66, 0.95], dtype=np.float32)  # m


@wp.kernel
def thaw_depth(t_air: wp.array2d(dtype=float), n_weeks: wp.array(dtype=int), p: wp.array(dtype=float),
               z_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    z = float(0.05)
    for w in range(MAX_WEEKS):
        # weeks after the site's season contribute nothing
        thawing = wp.where(w < n_weeks[i], 1.0, 0.0)
        z = z + thawing * p[0] * 1.0e-3 * p[1] * t_air[i, w] / z
    r = z - z_obs[i]
    wp.atomic_add(loss, 0, r * r)


t_d = wp.array(T_AIR, dtype=float)
nw_d = wp.array(N_WEEKS, dtype=int)
zobs_d = wp.array(Z_OBS, dtype=float)
PARAMS0 = [5.0, 0.9]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(thaw_depth, dim=N_SITE, inputs=[t_d, nw_d, params, zobs_d], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"thaw-depth misfit {l:.5f}  dL/dkappa={g[0]:.4f}  dL/dnf={g[1]:.4f}")
