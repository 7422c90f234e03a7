"""Summer heating of a small temperate lake: fit the vertical eddy
diffusivity and the shortwave light-extinction coefficient to a thermistor
chain (five depths, hourly, two days).

Each hour the shortwave flux is absorbed layer by layer (Beer-Lambert with
extinction kd) and heat diffuses vertically with diffusivity K (explicit).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_Z = 20
DZ = 1.0  # m
DT = 1.0  # h
N_HOURS = 48
RHO_C = 4.18e6  # J / (m^3 K)
HEAT_K_PER_H = 3600.0 / (RHO_C * DZ)
SENSORS = np.array([1, 4, 8, 12, 17], dtype=np.int32)
N_SENSOR = SENSORS.size
SW = np.maximum(0.0, 650.0 * np.sin(np.pi * ((np.arange(N_HOURS) % 24) - 6.0) / 14.0)).astype(np.float32)  # W/m^2


@wp.kernel
def absorption_profile(prm: wp.array(dtype=float), frac: wp.array(dtype=float)):
    z = wp.tid()
    top = float(z) * DZ
    frac[z] = wp.exp(-prm[1] * top) - wp.exp(-prm[1] * (top + DZ))


@wp.kernel
def heat_step(temp: wp.array2d(dtype=float), frac: wp.array(dtype=float), prm: wp.array(dtype=float),
              sw: wp.array(dtype=float), n: int):
    z = wp.tid()
    t_up = temp[n, wp.max(z - 1, 0)]
    t_dn = temp[n, wp.min(z + 1, N_Z - 1)]
    t_c = temp[n, z]
    diff = prm[0] * DT / (DZ * DZ) * (t_up - 2.0 * t_c + t_dn)
    temp[n + 1, z] = t_c + diff + sw[n] * frac[z] * HEAT_K_PER_H


@wp.kernel
def chain_misfit(temp: wp.array2d(dtype=float), sensors: wp.array(dtype=int), obs: wp.array2d(dtype=float),
                 loss: wp.array(dtype=float)):
    n, k = wp.tid()
    d = temp[n + 1, sensors[k]] - obs[n, k]
    wp.atomic_add(loss, 0, d * d / float(N_HOURS * N_SENSOR))


T0 = (19.0 - 9.0 / (1.0 + np.exp(-(np.arange(N_Z) - 7.0) / 1.5))).astype(np.float32)
SW_W = wp.array(SW, dtype=float)
SENS_W = wp.array(SENSORS, dtype=int)


def simulate(prm, tape):
    rg = prm.requires_grad
    frac = wp.zeros(N_Z, dtype=float, requires_grad=rg)
    temp = wp.zeros((N_HOURS + 1, N_Z), dtype=float, requires_grad=rg)
    temp.assign(np.tile(T0, (N_HOURS + 1, 1)))
    with tape:
        wp.launch(absorption_profile, dim=N_Z, inputs=[prm], outputs=[frac])
        frac = wp.array(np.clip(frac.numpy(), 0.0, None), dtype=float, requires_grad=rg)  # expect: truncation
        for n in range(N_HOURS):
            wp.launch(heat_step, dim=N_Z, inputs=[temp, frac, prm, SW_W, n])
    return temp


_true = simulate(wp.array([0.12, 0.45], dtype=float), wp.Tape()).numpy()[1:, SENSORS]
OBS = wp.array(_true + 0.02 * np.random.default_rng(29).standard_normal(_true.shape).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    temp = simulate(prm, tape)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with tape:
        wp.launch(chain_misfit, dim=(N_HOURS, N_SENSOR), inputs=[temp, SENS_W, OBS], outputs=[loss])
    tape.backward(loss)
    return 100.0 * float(loss.numpy()[0]), 100.0 * prm.grad.numpy()


PARAMS0 = np.array([0.18, 0.35])  # K (m^2/h), kd (1/m)
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"thermistor misfit {f:.4f}; d/d(K, kd) = {g}")
