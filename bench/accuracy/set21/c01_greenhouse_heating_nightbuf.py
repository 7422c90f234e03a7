# correct: the night temperatures are copied on the tape into their own buffer, so the day launch keeps its inputs.
"""Greenhouse heating demand: fit the envelope U-value and infiltration
coefficient to metered day and night heater power."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_HOUR = 12
T_SET = 20.0
rng = np.random.default_rng(11)
T_DAY = (8.0 + 4.0 * rng.random(N_HOUR)).astype(np.float32)
T_NIGHT = (-2.0 + 5.0 * rng.random(N_HOUR)).astype(np.float32)
WIND = (1.0 + 5.0 * rng.random(N_HOUR)).astype(np.float32)
TRUE = np.array([0.55, 0.12])


@wp.kernel
def heater_power(p: wp.array(dtype=float), t_out: wp.array(dtype=float), wind: wp.array(dtype=float),
                 scale: float, power: wp.array(dtype=float)):
    i = wp.tid()
    dt = T_SET - t_out[i]
    cond = p[0] * dt
    infil = p[1] * wp.sqrt(wind[i]) * dt * wp.sqrt(dt)
    power[i] = scale * (cond + infil) * 0.1


@wp.kernel
def sq_err(pred: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pred[i] - obs[i]
    wp.atomic_add(loss, 0, d * d / float(N_HOUR))


def metered(p):
    out = []
    for t, s in ((T_DAY, 1.0), (T_NIGHT, 1.3)):
        dt = T_SET - t
        out.append(s * (p[0] * dt + p[1] * np.sqrt(WIND) * dt ** 1.5) * 0.1)
    return [o.astype(np.float32) for o in out]


OBS_DAY, OBS_NIGHT = metered(TRUE)
PARAMS0 = np.array([0.8, 0.05])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    t_out = wp.array(T_DAY, dtype=float, requires_grad=True)
    t_night = wp.array(T_NIGHT, dtype=float)
    t_out_night = wp.zeros_like(t_out)
    wind = wp.array(WIND, dtype=float)
    p_day = wp.zeros(N_HOUR, dtype=float, requires_grad=True)
    p_night = wp.zeros(N_HOUR, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(heater_power, dim=N_HOUR, inputs=[params, t_out, wind, 1.0], outputs=[p_day])
        wp.launch(sq_err, dim=N_HOUR, inputs=[p_day, wp.array(OBS_DAY, dtype=float)], outputs=[loss])
        wp.copy(t_out_night, t_night)
        wp.launch(heater_power, dim=N_HOUR, inputs=[params, t_out_night, wind, 1.3], outputs=[p_night])
        wp.launch(sq_err, dim=N_HOUR, inputs=[p_night, wp.array(OBS_NIGHT, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p = p - 0.002 * g
    print(f"loss {loss:.5f}  U={p[0]:.3f}  k_inf={p[1]:.3f}")
