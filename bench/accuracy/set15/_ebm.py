"""Budyko-Sellers zonal energy-balance model on 18 latitude bands (degC, W/m^2)."""
import numpy as np
import warp as wp

N_BAND = 18
LAT = np.linspace(-85.0, 85.0, N_BAND)
X = np.sin(np.radians(LAT))
S_INSOL = (1.0 - 0.482 * 0.5 * (3.0 * X * X - 1.0)).astype(np.float32)  # normalised annual insolation
AREA_W = (np.cos(np.radians(LAT)) / np.cos(np.radians(LAT)).sum()).astype(np.float32)
Q0 = 340.0
A_OLR = 203.3
B_OLR = 2.09
T_OBS = (28.0 - 50.0 * X ** 2 - 8.0 * X ** 4).astype(np.float32)


@wp.func
def coalbedo(t: float):
    # smooth ice-albedo feedback: albedo 0.62 over ice, 0.30 over open surface
    return 1.0 - (0.46 - 0.16 * wp.tanh((t + 10.0) / 6.0))


@wp.kernel
def global_mean(t: wp.array(dtype=float), w: wp.array(dtype=float), tbar: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(tbar, 0, w[i] * t[i])


@wp.kernel
def relax(t: wp.array(dtype=float), tbar: wp.array(dtype=float), s: wp.array(dtype=float),
          prm: wp.array(dtype=float), omega: float, t_new: wp.array(dtype=float)):
    # prm: CO2 forcing F [W/m^2], meridional transport D [W/m^2/K]
    i = wp.tid()
    g = (Q0 * s[i] * coalbedo(t[i]) + prm[1] * tbar[0] - (A_OLR - prm[0])) / (B_OLR + prm[1])
    t_new[i] = t[i] + omega * (g - t[i])


@wp.kernel
def zonal_misfit(t: wp.array(dtype=float), obs: wp.array(dtype=float), w: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - obs[i]
    wp.atomic_add(loss, 0, w[i] * d * d)


def sweep(t, prm, omega):
    """One damped relaxation sweep; returns the new temperature array (taped if a tape is active)."""
    tbar = wp.zeros(1, dtype=float, requires_grad=True)
    t_new = wp.zeros(N_BAND, dtype=float, requires_grad=True)
    wp.launch(global_mean, dim=N_BAND, inputs=[t, wp.array(AREA_W, dtype=float)], outputs=[tbar])
    wp.launch(relax, dim=N_BAND, inputs=[t, tbar, wp.array(S_INSOL, dtype=float), prm, omega], outputs=[t_new])
    return t_new


def misfit(t):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(zonal_misfit, dim=N_BAND, inputs=[t, wp.array(T_OBS, dtype=float), wp.array(AREA_W, dtype=float)],
              outputs=[loss])
    return loss
