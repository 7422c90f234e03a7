# correct: conduction and radiation write separate arrays; the heater adds in place without reading the old value
"""Heated rod with conduction and radiative losses (nondimensional units).

Fit the diffusivity and the surface emissivity to temperatures read by three
thermocouples after a short transient.
"""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")


@wp.struct
class RodConfig:
    dt: wp.float64
    inv_dx2: wp.float64
    t_amb: wp.float64


@wp.kernel
def conduct(T: wp.array(dtype=wp.float64), p: wp.array(dtype=wp.float64), cfg: RodConfig,
            T_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    n = T.shape[0]
    if i == 0 or i == n - 1:
        T_out[i] = T[i]
        return
    lap = (T[i - 1] - wp.float64(2.0) * T[i] + T[i + 1]) * cfg.inv_dx2
    T_out[i] = T[i] + cfg.dt * p[0] * lap


@wp.kernel
def radiate(T: wp.array(dtype=wp.float64), p: wp.array(dtype=wp.float64), cfg: RodConfig,
            T_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    t = T[i]
    ta = cfg.t_amb
    T_out[i] = t - cfg.dt * p[1] * (t * t * t * t - ta * ta * ta * ta)


@wp.kernel
def heater(profile: wp.array(dtype=wp.float64), power: wp.float64, cfg: RodConfig, T: wp.array(dtype=wp.float64)):
    i = wp.tid()
    T[i] += cfg.dt * power * profile[i]


@wp.kernel
def sensor_misfit(T: wp.array(dtype=wp.float64), idx: wp.array(dtype=wp.int32), meas: wp.array(dtype=wp.float64),
                  loss: wp.array(dtype=wp.float64)):
    s = wp.tid()
    r = T[idx[s]] - meas[s]
    wp.atomic_add(loss, 0, r * r)


N = 16
STEPS = 30


def initial_profile():
    xs = np.linspace(0.0, 1.0, N)
    return 1.0 + 0.8 * np.exp(-((xs - 0.4) / 0.15) ** 2)


def advance(T_in, T_out, p, cfg, profile):
    mid = wp.zeros_like(T_in)
    wp.launch(conduct, dim=N, inputs=[T_in, p, cfg], outputs=[mid])
    wp.launch(radiate, dim=N, inputs=[mid, p, cfg], outputs=[T_out])
    wp.launch(heater, dim=N, inputs=[profile, wp.float64(4.0), cfg], outputs=[T_out])


def run(p_np):
    cfg = RodConfig()
    cfg.dt = 0.002
    cfg.inv_dx2 = float((N - 1) ** 2)
    cfg.t_amb = 1.0
    p = wp.array(p_np, dtype=wp.float64, requires_grad=True)
    temps = [wp.array(initial_profile(), dtype=wp.float64, requires_grad=True)]
    temps += [wp.zeros(N, dtype=wp.float64, requires_grad=True) for _ in range(STEPS)]
    idx = wp.array([3, 7, 11], dtype=wp.int32)
    meas = wp.array([1.10, 1.20, 1.04], dtype=wp.float64)
    profile = wp.array(np.exp(-((np.linspace(0.0, 1.0, N) - 0.7) / 0.1) ** 2), dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            advance(temps[k], temps[k + 1], p, cfg, profile)
        wp.launch(sensor_misfit, dim=3, inputs=[temps[-1], idx, meas], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


PARAMS0 = np.array([0.9, 15.0])
FD_EPS = 1e-6


def evaluate(p):
    return run(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = run(p)
        p -= 0.5 * g
        print(f"iter {it}: misfit {l:.6f}  alpha={p[0]:.4f} emissivity={p[1]:.4f}")
