"""Degree-day snowmelt for five alpine snow-pillow stations over a spring week.

Daily melt = DDF * max(T - T0, 0) with rain-on-snow adding heat; the snow
water equivalent is stepped day by day, and the melt factor DDF and the
threshold T0 are fitted to the pillow readings at the end of the week.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_ST = 5
N_DAYS = 7
RNG = np.random.default_rng(21)
TEMP = (RNG.uniform(-2.0, 9.0, (N_DAYS, N_ST))).astype(np.float32)  # deg C
RAIN = np.clip(RNG.uniform(-4.0, 6.0, (N_DAYS, N_ST)), 0.0, None).astype(np.float32)  # mm
SWE0 = np.array([310.0, 420.0, 260.0, 380.0, 500.0], dtype=np.float32)  # mm
SWE_OBS = np.array([205.0, 330.0, 150.0, 290.0, 430.0], dtype=np.float32)


@wp.kernel
def melt_day(swe: wp.array(dtype=float), temp: wp.array2d(dtype=float), rain: wp.array2d(dtype=float),
             day: int, p: wp.array(dtype=float), swe_out: wp.array(dtype=float)):
    s = wp.tid()
    t = temp[day, s]
    melt = p[0] * wp.log(1.0 + wp.exp(t - p[1])) + 0.0125 * rain[day, s] * wp.max(t, 0.0)
    swe_out[s] = swe[s] - melt * (swe[s] / (swe[s] + 20.0))


@wp.kernel
def pillow_misfit(swe: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    s = wp.tid()
    r = (swe[s] - obs[s]) / 10.0
    wp.atomic_add(loss, 0, r * r)


temp_d = wp.array(TEMP, dtype=float)
rain_d = wp.array(RAIN, dtype=float)
obs_d = wp.array(SWE_OBS, dtype=float)
PARAMS0 = [3.0, 0.5]
FD_EPS = [1e-3, 1e-3]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    swe = wp.array(SWE0, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for day in range(N_DAYS):
            nxt = wp.zeros(N_ST, dtype=float, requires_grad=True)
            wp.launch(melt_day, dim=N_ST, inputs=[swe, temp_d, rain_d, day, params], outputs=[nxt])
            swe = nxt
            if day == 3:
                # mid-week pillow check (printed when run as a script)
                mid = swe.numpy()
        swe_cur = wp.array(swe.numpy(), dtype=float, requires_grad=True)  # expect: truncation
        wp.launch(pillow_misfit, dim=N_ST, inputs=[swe_cur, obs_d], outputs=[loss])
    tape.backward(loss)
    evaluate.mid = mid
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"mid-week SWE {np.round(evaluate.mid, 1)}")
    print(f"end-of-week misfit {l:.3f}  dL/dDDF={g[0]:.4f}  dL/dT0={g[1]:.4f}")
