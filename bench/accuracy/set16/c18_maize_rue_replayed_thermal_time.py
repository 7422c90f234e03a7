# correct: the replayed launch command is the parameter-free thermal-time kernel; the growth kernel is launched on the tape
"""Maize canopy growth over 40 days after emergence on twelve fields:
calibrate radiation-use efficiency, canopy light extinction and specific
leaf area to the destructive biomass harvest at day 40.

Daily: thermal time accumulates, LAI = SLA * leaf fraction(thermal time) *
biomass, intercepted PAR = PAR (1 - exp(-k LAI)), biomass += RUE * iPAR.
The daily thermal-time launch is built once and replayed with a new day index.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_FIELD = 12
N_DAY = 40
T_BASE = 8.0
_rng = np.random.default_rng(47)
PAR = (9.0 + 2.0 * _rng.standard_normal(N_DAY)).clip(3.0, None).astype(np.float32)  # MJ/m^2/day
TEMP = (19.0 + 0.12 * np.arange(N_DAY) + 2.5 * _rng.standard_normal(N_DAY)).astype(np.float32)
SITE_DT = np.linspace(-1.5, 1.5, N_FIELD).astype(np.float32)  # field temperature offsets
B0 = np.full(N_FIELD, 12.0, dtype=np.float32)  # g/m^2 at emergence


@wp.kernel
def thermal_time(temp: wp.array(dtype=float), site_dt: wp.array(dtype=float), d: int, tt: wp.array2d(dtype=float)):
    f = wp.tid()
    tt[d + 1, f] = tt[d, f] + wp.max(temp[d] + site_dt[f] - T_BASE, 0.0)


@wp.kernel
def grow_day(prm: wp.array(dtype=float), par: wp.array(dtype=float), tt: wp.array2d(dtype=float), d: int,
             biomass: wp.array2d(dtype=float)):
    f = wp.tid()
    leaf_frac = 0.6 / (1.0 + wp.exp((tt[d, f] - 450.0) / 90.0))
    lai = prm[2] * 0.001 * leaf_frac * biomass[d, f]  # SLA in cm^2/g -> m^2/g * 0.1
    ipar = par[d] * (1.0 - wp.exp(-prm[1] * lai))
    biomass[d + 1, f] = biomass[d, f] + prm[0] * ipar


@wp.kernel
def harvest_misfit(biomass: wp.array2d(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    f = wp.tid()
    r = (biomass[N_DAY, f] - obs[f]) / 50.0
    wp.atomic_add(loss, 0, r * r / float(N_FIELD))


PAR_W, TEMP_W, SITE_W = (wp.array(a, dtype=float) for a in (PAR, TEMP, SITE_DT))


def season(prm, loss=None, obs=None):
    rg = prm.requires_grad
    tt = wp.zeros((N_DAY + 1, N_FIELD), dtype=float)
    biomass = wp.zeros((N_DAY + 1, N_FIELD), dtype=float, requires_grad=rg)
    biomass.assign(np.tile(B0, (N_DAY + 1, 1)))
    cmd = wp.launch(thermal_time, dim=N_FIELD, inputs=[TEMP_W, SITE_W, 0, tt], record_cmd=True)
    tape = wp.Tape()
    with tape:
        for d in range(N_DAY):
            cmd.set_param_at_index(2, d)
            cmd.launch()
            wp.launch(grow_day, dim=N_FIELD, inputs=[prm, PAR_W, tt, d], outputs=[biomass])
        if loss is not None:
            wp.launch(harvest_misfit, dim=N_FIELD, inputs=[biomass, obs], outputs=[loss])
    return tape, biomass


_b = season(wp.array([3.1, 0.62, 190.0], dtype=float))[1].numpy()[N_DAY]
OBS = wp.array((_b * (1.0 + 0.04 * _rng.standard_normal(N_FIELD))).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape, _ = season(prm, loss, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([2.8, 0.55, 170.0])  # RUE g/MJ, k, SLA cm^2/g
FD_EPS = np.array([1e-3, 1e-3, 1e-1])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"harvest misfit {f:.4f}; d/d(RUE, k, SLA) = {g}")
