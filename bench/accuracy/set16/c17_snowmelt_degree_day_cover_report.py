# correct: record_tape=False is used only for the snow-cover diagnostic, which no loss term reads
"""Degree-day snowmelt model of a headwater basin in ten elevation bands:
calibrate the degree-day factor, the temperature lapse rate and the melt
threshold to the daily melt-runoff record of April.

Band temperature T = T_station + lapse (z - z_station) / 1000; melt =
ddf * softplus(T - T0); snowfall fraction is a smooth function of T.
"""
import numpy as np
import warp as wp

from _snow_basin import N_BAND, N_DAY, SWE0, Z_STATION, Basin, make_basin

wp.config.quiet = True

BASIN = make_basin()


@wp.kernel
def band_temperature(b: Basin, prm: wp.array(dtype=float), temp: wp.array2d(dtype=float)):
    d, k = wp.tid()
    temp[d, k] = b.t_station[d] + prm[1] * (b.z[k] - Z_STATION) / 1000.0


@wp.kernel
def melt_day(b: Basin, temp: wp.array2d(dtype=float), prm: wp.array(dtype=float), d: int,
             swe: wp.array2d(dtype=float), runoff: wp.array(dtype=float)):
    k = wp.tid()
    t = temp[d, k]
    x = t - prm[2]
    melt = prm[0] * (wp.max(x, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(x))))
    snow_frac = 1.0 / (1.0 + wp.exp(2.0 * (t - 1.0)))
    swe[d + 1, k] = swe[d, k] + snow_frac * b.precip[d] - melt
    wp.atomic_add(runoff, d, b.area[k] * (melt + (1.0 - snow_frac) * b.precip[d]))


@wp.kernel
def snow_cover(b: Basin, swe: wp.array2d(dtype=float), d: int, sca: wp.array(dtype=float)):
    k = wp.tid()
    if swe[d, k] > 50.0:
        wp.atomic_add(sca, 0, b.area[k])


@wp.kernel
def runoff_misfit(runoff: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    d = wp.tid()
    r = (runoff[d] - obs[d]) / 2.0
    wp.atomic_add(loss, 0, r * r / float(N_DAY))


def simulate(prm, tape):
    rg = prm.requires_grad
    temp = wp.zeros((N_DAY, N_BAND), dtype=float, requires_grad=rg)
    swe = wp.zeros((N_DAY + 1, N_BAND), dtype=float, requires_grad=rg)
    swe.assign(np.tile(SWE0, (N_DAY + 1, 1)))
    runoff = wp.zeros(N_DAY, dtype=float, requires_grad=rg)
    with tape:
        wp.launch(band_temperature, dim=(N_DAY, N_BAND), inputs=[BASIN, prm], outputs=[temp])
        for d in range(N_DAY):
            wp.launch(melt_day, dim=N_BAND, inputs=[BASIN, temp, prm, d], outputs=[swe, runoff])
        sca = wp.zeros(1, dtype=float)
        wp.launch(snow_cover, dim=N_BAND, inputs=[BASIN, swe, N_DAY], outputs=[sca], record_tape=False)
    simulate.snow_cover = float(sca.numpy()[0])
    return runoff


_r = simulate(wp.array([4.2, -6.2, 0.5], dtype=float), wp.Tape()).numpy()
OBS = wp.array(_r * (1.0 + 0.05 * np.random.default_rng(43).standard_normal(N_DAY)).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    runoff = simulate(prm, tape)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with tape:
        wp.launch(runoff_misfit, dim=N_DAY, inputs=[runoff, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([3.5, -5.5, 0.0])  # ddf (mm / degC / day), lapse (degC / km), T0 (degC)
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"runoff misfit {f:.4f}; d/d(ddf, lapse, T0) = {g}; snow-covered fraction on 1 May {simulate.snow_cover:.2f}")
