"""Rooftop PV plant: calibrate module efficiency, temperature coefficient and
soiling loss from one clear day of per-string energy meters.

String power P = eta A G (1 - soil) (1 + gamma (T_cell - 25)), with the cell
temperature from the NOCT model T_cell = T_amb + G (NOCT - 20) / 800.
The per-string squared energy errors come from Warp; the plant-level
objective is their capacity-weighted mean, computed with NumPy.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_STRING = 10
HOURS = np.arange(6.0, 19.0, 1.0, dtype=np.float32)
N_HOUR = HOURS.size
AREA = np.linspace(14.0, 33.0, N_STRING).astype(np.float32)  # m^2 per string
CAPACITY_KW = (AREA * 0.2).astype(np.float32)
TILT_GAIN = np.linspace(0.85, 1.1, N_STRING).astype(np.float32)
G_H = np.maximum(0.0, 950.0 * np.sin(np.pi * (HOURS - 6.0) / 13.0)).astype(np.float32)  # W/m^2
T_AMB = (18.0 + 9.0 * np.sin(np.pi * (HOURS - 9.0) / 12.0)).astype(np.float32)
NOCT = 45.0


@wp.kernel
def string_energy_error(prm: wp.array(dtype=float), area: wp.array(dtype=float), tilt: wp.array(dtype=float),
                        g_h: wp.array(dtype=float), t_amb: wp.array(dtype=float),
                        meter_kwh: wp.array(dtype=float), sq_err: wp.array(dtype=float)):
    s = wp.tid()
    e = float(0.0)
    for h in range(N_HOUR):
        g = g_h[h] * tilt[s]
        t_cell = t_amb[h] + g * (NOCT - 20.0) / 800.0
        p = prm[0] * area[s] * g * (1.0 - prm[2]) * (1.0 + prm[1] * (t_cell - 25.0))
        e += p / 1000.0  # kWh over one hour
    d = e - meter_kwh[s]
    sq_err[s] = d * d


def _meters():
    g = G_H[None, :] * TILT_GAIN[:, None]
    t_cell = T_AMB[None, :] + g * (NOCT - 20.0) / 800.0
    p = 0.195 * AREA[:, None] * g * 0.96 * (1.0 - 0.0041 * (t_cell - 25.0))
    return (p.sum(axis=1) / 1000.0 * (1 + 0.02 * np.random.default_rng(2).standard_normal(N_STRING))).astype(np.float32)


DATA = [wp.array(AREA, dtype=float), wp.array(TILT_GAIN, dtype=float), wp.array(G_H, dtype=float),
        wp.array(T_AMB, dtype=float), wp.array(_meters(), dtype=float)]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    sq_err = wp.zeros(N_STRING, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(string_energy_error, dim=N_STRING, inputs=[prm] + DATA, outputs=[sq_err])
    loss = float(np.average(sq_err.numpy(), weights=CAPACITY_KW))
    tape.backward(grads={sq_err: wp.array(CAPACITY_KW, dtype=float)})  # expect: seeding
    return loss, prm.grad.numpy().copy()


PARAMS0 = np.array([0.18, -0.0035, 0.02])
FD_EPS = np.array([1e-4, 1e-5, 1e-4])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"capacity-weighted squared error {f:.4f} kWh^2; d/d(eta, gamma, soil) = {g}")
