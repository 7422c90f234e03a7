"""Gray-gas single-column longwave model: 24 layers of 0.5 km, 16 columns of different humidity."""
import numpy as np
import warp as wp

N_LEV = 24
N_COL = 16
DZ = 0.5  # km
SIGMA = 5.670e-8
T_SURF = 288.0


@wp.func
def layer_tau(col: int, k: int, q: wp.array2d(dtype=float), prm: wp.array(dtype=float)):
    # prm: lapse rate [K/km], CO2 absorber scale; well-mixed CO2 thins with pressure, water vapour with q
    z = (float(k) + 0.5) * DZ
    return (prm[1] * 0.09 * wp.exp(-z / 8.0) + 0.35 * q[col, k]) * DZ


@wp.kernel
def optical_depth_above(q: wp.array2d(dtype=float), prm: wp.array(dtype=float), tau_above: wp.array2d(dtype=float)):
    col, k, m = wp.tid()  # layer m adds its optical depth to every level k below it
    if m > k and m < N_LEV:
        wp.atomic_add(tau_above, col, k, layer_tau(col, m, q, prm))


@wp.kernel
def layer_emission(q: wp.array2d(dtype=float), prm: wp.array(dtype=float), tau: wp.array2d(dtype=float),
                   olr: wp.array(dtype=float)):
    col, k = wp.tid()  # k == N_LEV is the surface
    tau_above = tau[col, k]
    if k == N_LEV:
        wp.atomic_add(olr, col, SIGMA * T_SURF * T_SURF * T_SURF * T_SURF * wp.exp(-tau_above))
    else:
        t = T_SURF - prm[0] * (float(k) + 0.5) * DZ
        emis = 1.0 - wp.exp(-layer_tau(col, k, q, prm))
        wp.atomic_add(olr, col, SIGMA * t * t * t * t * emis * wp.exp(-tau_above))


@wp.kernel
def olr_misfit(olr: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    d = olr[c] - obs[c]
    wp.atomic_add(loss, 0, d * d / float(N_COL))


@wp.kernel
def nudge_humidity(q: wp.array2d(dtype=float), q_ref: wp.array2d(dtype=float), alpha: float,
                   q_out: wp.array2d(dtype=float)):
    c, k = wp.tid()
    q_out[c, k] = q[c, k] + alpha * (q_ref[c, k] - q[c, k])


def outgoing_longwave(q, prm, olr):
    """OLR of every column into olr (taped if a tape is active)."""
    tau = wp.zeros((N_COL, N_LEV + 1), dtype=float, requires_grad=True)
    wp.launch(optical_depth_above, dim=(N_COL, N_LEV + 1, N_LEV), inputs=[q, prm], outputs=[tau])
    wp.launch(layer_emission, dim=(N_COL, N_LEV + 1), inputs=[q, prm, tau], outputs=[olr])


def humidity(seed=8, scale=1.0):
    rng = np.random.default_rng(seed)
    z = (np.arange(N_LEV) + 0.5) * DZ
    rh = rng.uniform(0.3, 1.0, (N_COL, 1))
    return (scale * rh * 2.5 * np.exp(-z / 2.0)[None, :]).astype(np.float32)


def observed_olr():
    rng = np.random.default_rng(9)
    return (235.0 + 25.0 * rng.random(N_COL)).astype(np.float32)
