# correct: b20 (truncation): the reference temperature is a device-side wp.clone of the taped mean, and the host only reads it after tape.backward() for the report.
"""Concrete strength development from embedded temperature loggers
(Nurse-Saul maturity): the loggers' mean curing temperature (with a sensor
offset) sets the maturity of each test cylinder, and the compressive strength
follows S = Su exp(-(tau / M)^beta). The datum temperature and the sensor
offset are fitted to cylinder breaks.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

SU = 48.0
TAU = 900.0
BETA = 0.9
N_LOG = 24
LOG_T = 14.0 + 4.0 * np.sin(np.linspace(0.0, 6.0 * np.pi, N_LOG))
AGE_H = np.array([24.0, 72.0, 168.0, 336.0, 672.0, 24.0, 72.0, 168.0])
S_OBS = np.array([11.9, 28.7, 37.7, 41.8, 45.0, 11.5, 28.7, 37.1])
PARAMS0 = np.array([-8.0, 0.8])


@wp.kernel
def mean_temperature(logger: wp.array(dtype=float), p: wp.array(dtype=float), tm: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(tm, 0, (logger[i] + p[1]) / float(N_LOG))


@wp.kernel
def cylinder_strength(age: wp.array(dtype=float), t_ref: wp.array(dtype=float), p: wp.array(dtype=float),
                      s: wp.array(dtype=float)):
    i = wp.tid()
    m = (t_ref[0] - p[0]) * age[i]
    s[i] = SU * wp.exp(-wp.pow(TAU / m, BETA))


@wp.kernel
def break_loss(s: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = s[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


LAST_MEAN_T = [0.0]


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    tm = wp.zeros(1, dtype=float, requires_grad=True)
    s = wp.zeros(len(AGE_H), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(mean_temperature, dim=N_LOG, inputs=[wp.array(LOG_T, dtype=float), p], outputs=[tm])
        t_ref = wp.clone(tm)
        wp.launch(cylinder_strength, dim=len(AGE_H), inputs=[wp.array(AGE_H, dtype=float), t_ref, p], outputs=[s])
        wp.launch(break_loss, dim=len(AGE_H), inputs=[s, wp.array(S_OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    LAST_MEAN_T[0] = float(t_ref.numpy()[0])
    return float(loss.numpy()[0]), p.grad.numpy().copy()


if __name__ == "__main__":
    val, g = evaluate(PARAMS0)
    print(f"mean curing temperature {LAST_MEAN_T[0]:.2f} C")
    print(f"break misfit {val:.3f} MPa^2  d/d(datum) {g[0]:.4f}  d/d(offset) {g[1]:.4f}")
