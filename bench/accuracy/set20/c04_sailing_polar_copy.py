# correct: b04 (untaped_write): the anemometer calibration is applied to a NumPy copy of the taped wind vectors, not to a view of them.
"""Racing-dinghy speed polar from a regatta log: boat speed is modelled as
eff * |apparent wind|^expo * sin-shaped sail-angle factor, with the apparent
wind built from the logged true-wind vectors (vec2, m/s) and the heading.
The log's wind vectors are read on the tape; two polar coefficients are fit.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LEG = 10
ANEMO_CAL = 1.07
rng = np.random.default_rng(4)
HEADING = np.linspace(0.5, 2.6, N_LEG)
TRUE_WIND = np.stack([np.full(N_LEG, -6.0) + rng.normal(0, 0.5, N_LEG), rng.normal(0.8, 0.6, N_LEG)], 1)
SPEED_LOG = np.array([2.9, 3.4, 3.9, 4.3, 4.6, 4.7, 4.6, 4.3, 3.9, 3.3])
PARAMS0 = np.array([1.1, 0.7])


@wp.kernel
def boat_speed(wind: wp.array(dtype=wp.vec2), heading: wp.array(dtype=float), p: wp.array(dtype=float),
               speed: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.vec2(wp.cos(heading[i]), wp.sin(heading[i]))
    w = wind[i]
    aws = wp.length(w - 2.0 * d)
    twa = wp.acos(wp.dot(-w, d) / wp.length(w))
    speed[i] = p[0] * wp.pow(aws, p[1]) * wp.sin(0.5 * twa + 0.3)


@wp.kernel
def polar_loss(speed: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = speed[i] - obs[i]
    wp.atomic_add(loss, 0, 0.5 * r * r)


def evaluate(p_np, log=None):
    wind = wp.array(TRUE_WIND, dtype=wp.vec2)
    heading = wp.array(HEADING, dtype=float)
    p = wp.array(p_np, dtype=float, requires_grad=True)
    speed = wp.zeros(N_LEG, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(boat_speed, dim=N_LEG, inputs=[wind, heading, p], outputs=[speed])
        wp.launch(polar_loss, dim=N_LEG, inputs=[speed, wp.array(SPEED_LOG, dtype=float)], outputs=[loss])
    tws_np = wind.numpy().copy()
    tws_np *= ANEMO_CAL
    if log is not None:
        log.append(np.linalg.norm(tws_np, axis=1).mean())
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    log = []
    for it in range(30):
        val, g = evaluate(p, log)
        p -= 0.001 * g
    print(f"polar misfit {val:.4f}  eff {p[0]:.3f}  expo {p[1]:.3f}  mean calibrated TWS {log[-1]:.2f} m/s")
