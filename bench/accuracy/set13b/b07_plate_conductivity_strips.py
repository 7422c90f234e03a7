"""Thermal conductivity of a three-strip composite plate from thermocouple histories.

Explicit finite-volume heat conduction on a 24 x 24 plate, edges held at
ambient temperature, a resistive heater in one corner. Conductivities of the
three vertical strips are fitted to five thermocouples, with a smoothness
penalty between neighbouring strips.
"""
import numpy as np
import warp as wp

NX = NY = 24
NSTEPS = 80
DT = 0.2
T_AMB = 20.0
HEATER = (6, 6)
SENSORS = np.array([[4, 12], [12, 12], [19, 12], [12, 4], [12, 19]], dtype=np.int32)
REG = 0.5


@wp.kernel
def strip_conductivity(kp: wp.array(dtype=float), k: wp.array2d(dtype=float)):
    i, j = wp.tid()
    k[i, j] = kp[i * 3 // NX]


@wp.func
def face(ka: float, kb: float):
    return 2.0 * ka * kb / (ka + kb)


@wp.kernel
def conduct(T: wp.array2d(dtype=float), k: wp.array2d(dtype=float), dt: float, hi: int, hj: int, power: float,
            T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == NX - 1 or j == NY - 1:
        T_out[i, j] = T_AMB
        return
    kc = k[i, j]
    flux = face(kc, k[i - 1, j]) * (T[i - 1, j] - T[i, j]) + face(kc, k[i + 1, j]) * (T[i + 1, j] - T[i, j])
    flux += face(kc, k[i, j - 1]) * (T[i, j - 1] - T[i, j]) + face(kc, k[i, j + 1]) * (T[i, j + 1] - T[i, j])
    src = float(0.0)
    if wp.abs(i - hi) <= 1 and wp.abs(j - hj) <= 1:
        src = power
    T_out[i, j] = T[i, j] + dt * (flux + src)


@wp.kernel
def sensor_misfit(T: wp.array2d(dtype=float), sensors: wp.array2d(dtype=wp.int32), obs: wp.array(dtype=float),
                  loss: wp.array(dtype=float)):
    s = wp.tid()
    d = T[sensors[s, 0], sensors[s, 1]] - obs[s]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def smoothness(kp: wp.array(dtype=float), reg: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = kp[i + 1] - kp[i]
    wp.atomic_add(loss, 0, reg * d * d)


SENS = wp.array(SENSORS, dtype=wp.int32)


def heat_up(kp, loss=None, obs_every=None):
    k = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    wp.launch(strip_conductivity, dim=(NX, NY), inputs=[kp], outputs=[k])
    T0 = wp.array(np.full((NX, NY), T_AMB, dtype=np.float32), dtype=float)
    T = [T0] + [wp.empty_like(T0) for _ in range(NSTEPS)]  # expect: requires_grad
    readings = []
    for n in range(NSTEPS):
        wp.launch(conduct, dim=(NX, NY), inputs=[T[n], k, DT, HEATER[0], HEATER[1], 40.0], outputs=[T[n + 1]])
        if (n + 1) % 20 == 0:
            if loss is None:
                readings.append(T[n + 1].numpy()[SENSORS[:, 0], SENSORS[:, 1]].copy())
            else:
                wp.launch(sensor_misfit, dim=len(SENSORS), inputs=[T[n + 1], SENS, obs_every[(n + 1) // 20 - 1]],
                          outputs=[loss])
    return readings


OBS = [wp.array(r, dtype=float) for r in heat_up(wp.array([0.20, 0.35, 0.15], dtype=float))]
PARAMS0 = [0.25, 0.30, 0.20]
FD_EPS = 1e-3


def evaluate(p):
    kp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        heat_up(kp, loss, OBS)
        wp.launch(smoothness, dim=2, inputs=[kp, REG], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), kp.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: loss {f:.4e}  k {np.round(p, 4)}  grad {g}")
        p = np.clip(p - 1e-3 * g / (np.abs(g).max() + 1e-12) * 10, 0.05, 1.0)
