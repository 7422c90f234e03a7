# correct: b16 near-miss: Tuesday's humidity is assigned only after tape.backward().
"""Laundry drying on an outdoor line: moisture loss of garments vs air humidity and wind, one day of readings at a time."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_ITEM = 20
rng = np.random.default_rng(26)
HUMID_MON = rng.uniform(0.4, 0.7, N_ITEM).astype(np.float32)
HUMID_TUE = rng.uniform(0.75, 0.95, N_ITEM).astype(np.float32)
WIND = rng.uniform(0.5, 4.0, N_ITEM).astype(np.float32)
HOURS = rng.uniform(1.0, 5.0, N_ITEM).astype(np.float32)
OBS = np.exp(-0.25 * (1.0 - HUMID_MON) * (1.0 + 0.3 * WIND) * HOURS).astype(np.float32)
PARAMS0 = [0.2, 0.4]  # drying rate per hour, wind factor


@wp.kernel
def moisture(p: wp.array(dtype=float), humid: wp.array(dtype=float), wind: wp.array(dtype=float),
             hours: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.exp(-p[0] * (1.0 - humid[i]) * (1.0 + p[1] * wind[i]) * hours[i])


@wp.kernel
def misfit(m: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = (m[i] - obs[i]) * 10.0
    wp.atomic_add(loss, 0, e * e / float(N_ITEM))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    humid = wp.array(HUMID_MON, dtype=float)
    wet = wp.zeros(N_ITEM, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(moisture, dim=N_ITEM, inputs=[params, humid, wp.array(WIND, dtype=float), wp.array(HOURS, dtype=float)],
                  outputs=[wet])
        wp.launch(misfit, dim=N_ITEM, inputs=[wet, wp.array(OBS, dtype=float)], outputs=[loss])
    value = float(loss.numpy()[0])
    tape.backward(loss)
    humid.assign(HUMID_TUE)
    return value, params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("laundry loss", loss, "params", p)
