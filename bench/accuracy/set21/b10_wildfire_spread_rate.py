"""Wildfire rate of spread on a grid of fuel cells: a no-wind base rate, then a
wind-corrected rate where a weather station covers the cell; fuel moisture
damping and wind factor are fitted to burned-area perimeter surveys."""
import numpy as np
import warp as wp

wp.config.quiet = True

NX, NY = 8, 6
rng = np.random.default_rng(17)
MOIST = (0.05 + 0.15 * rng.random((NX, NY))).astype(np.float32)
WIND = (3.0 + 8.0 * rng.random((NX, NY))).astype(np.float32)
COVERED = (rng.random((NX, NY)) < 0.6).astype(np.int32)


@wp.func
def base_rate(p0: float, m: float):
    return 2.0 * wp.exp(-p0 * m * 10.0)


@wp.kernel
def still_air_ros(p: wp.array(dtype=float), moist: wp.array2d(dtype=float), ros: wp.array2d(dtype=float)):
    i, j = wp.tid()
    ros[i, j] = base_rate(p[0], moist[i, j])


@wp.kernel
def wind_ros(p: wp.array(dtype=float), moist: wp.array2d(dtype=float), wind: wp.array2d(dtype=float),
             covered: wp.array2d(dtype=int), ros: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if covered[i, j] == 1:
        ros[i, j] = base_rate(p[0], moist[i, j]) * (1.0 + p[1] * wp.pow(wind[i, j] * 0.1, 1.4))


@wp.kernel
def perimeter_misfit(ros: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = ros[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


def spread(params):
    ros = wp.zeros((NX, NY), dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
    moist = wp.array(MOIST, dtype=float)
    wp.launch(still_air_ros, dim=(NX, NY), inputs=[params, moist], outputs=[ros])
    wp.launch(wind_ros, dim=(NX, NY), inputs=[params, moist, wp.array(WIND, dtype=float),
                                              wp.array(COVERED, dtype=int)], outputs=[ros])
    return ros


OBS = spread(wp.array([0.9, 1.6], dtype=float)).numpy().copy()
PARAMS0 = np.array([1.1, 1.2])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        ros = spread(params)
        wp.launch(perimeter_misfit, dim=(NX, NY), inputs=[ros, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.05 * g
    print(f"loss {loss:.5f}  moisture damping={p[0]:.3f}  wind factor={p[1]:.3f}")
