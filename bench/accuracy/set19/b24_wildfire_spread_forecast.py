"""Grassland fire rate-of-spread calibration and next-day forecast.

Rate of spread R = a (1 + b U^1.5) exp(-d M) (m/min) with wind speed U (m/s)
and dead-fuel moisture M (fraction); the head-fire run over the observation
period is R T. The coefficients are calibrated against six experimental burns,
then the fuel-moisture buffer is loaded with tomorrow's forecast moisture.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

WIND = np.array([2.0, 4.5, 6.0, 3.0, 8.0, 5.0])
MOIST = np.array([0.06, 0.09, 0.12, 0.05, 0.15, 0.08])
MOIST_TOMORROW = np.array([0.11, 0.13, 0.16, 0.10, 0.18, 0.12])
DURATION = np.array([10.0, 8.0, 12.0, 15.0, 6.0, 10.0])  # min
RUN_OBS = np.array([95.0, 180.0, 190.0, 160.0, 170.0, 230.0])  # m


@wp.kernel
def spread_rate(coef: wp.array(dtype=float), wind: wp.array(dtype=float), moist: wp.array(dtype=float),
                ros: wp.array(dtype=float)):
    i = wp.tid()
    ros[i] = coef[0] * (1.0 + coef[1] * wp.pow(wind[i], 1.5)) * wp.exp(-coef[2] * moist[i])


@wp.kernel
def run_misfit(ros: wp.array(dtype=float), dur: wp.array(dtype=float), obs: wp.array(dtype=float),
               loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (ros[i] * dur[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, d * d)


def evaluate(c, forecast=False):
    coef = wp.array(np.asarray(c, dtype=np.float32), dtype=float, requires_grad=True)
    wind = wp.array(WIND, dtype=float)
    moisture = wp.array(MOIST, dtype=float)
    ros = wp.zeros(len(WIND), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spread_rate, dim=len(WIND), inputs=[coef, wind, moisture], outputs=[ros])
        wp.launch(run_misfit, dim=len(WIND), inputs=[ros, wp.array(DURATION, dtype=float), wp.array(RUN_OBS, dtype=float)],
                  outputs=[loss])
    wp.copy(moisture, wp.array(MOIST_TOMORROW, dtype=float))  # expect: untaped_write
    tape.backward(loss)
    grad = coef.grad.numpy().copy()
    if forecast:
        ros_tomorrow = wp.zeros(len(WIND), dtype=float)
        wp.launch(spread_rate, dim=len(WIND), inputs=[coef, wind, moisture], outputs=[ros_tomorrow])
        print("tomorrow's rate of spread (m/min):", np.round(ros_tomorrow.numpy(), 2))
    return float(loss.numpy()[0]), grad


PARAMS0 = [1.2, 0.5, 9.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0), forecast=True)
    print(f"run misfit {l:.3f}  gradient (a, b, d) = {g}")
