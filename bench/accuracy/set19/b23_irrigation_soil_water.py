"""Root-zone water balance of three irrigated maize fields.

Daily bucket model: theta[t+1] = theta[t] + (rain + irrigation - ET - D) / Z with
ET = Kc ET0 theta / (theta + 0.08) and gravity drainage D = k_sat theta^beta.
The crop coefficient, saturated conductivity and drainage exponent are
calibrated to soil-moisture probe readings; the reference-ET buffer is then
refilled with next week's forecast for the irrigation scheduler.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_FIELD = 3
N_DAY = 7
Z_ROOT = 600.0  # mm
ET0 = np.array([5.1, 5.6, 6.0, 4.8, 4.2, 5.5, 6.3])  # mm/day
ET0_NEXT = np.array([3.0, 3.2, 2.8, 3.5, 3.9, 4.0, 3.1])
RAIN = np.array([[0, 0, 12, 0, 0, 0, 0], [0, 5, 0, 0, 0, 0, 0], [0, 0, 0, 0, 20, 0, 0]], dtype=np.float64)
IRRIG = np.array([[20, 0, 0, 0, 20, 0, 0], [0, 0, 25, 0, 0, 25, 0], [15, 0, 0, 15, 0, 0, 15]], dtype=np.float64)
PROBE = np.array([0.262, 0.243, 0.270])  # end-of-week volumetric water content


@wp.kernel
def water_day(par: wp.array(dtype=float), et0: wp.array(dtype=float), rain: wp.array2d(dtype=float),
              irrig: wp.array2d(dtype=float), day: int, th: wp.array(dtype=float), th_next: wp.array(dtype=float)):
    f = wp.tid()
    s = th[f]
    et = par[0] * et0[day] * s / (s + 0.08)
    drain = par[1] * wp.pow(s, par[2])
    th_next[f] = s + (rain[f, day] + irrig[f, day] - et - drain) / Z_ROOT


@wp.kernel
def probe_misfit(th: wp.array(dtype=float), probe: wp.array(dtype=float), loss: wp.array(dtype=float)):
    f = wp.tid()
    d = 100.0 * (th[f] - probe[f])
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    et0 = wp.array(ET0, dtype=float)
    rain = wp.array(RAIN, dtype=float)
    irrig = wp.array(IRRIG, dtype=float)
    th = wp.full(N_FIELD, 0.28, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for day in range(N_DAY):
            th_next = wp.zeros(N_FIELD, dtype=float, requires_grad=True)
            wp.launch(water_day, dim=N_FIELD, inputs=[par, et0, rain, irrig, day, th], outputs=[th_next])
            th = th_next
        wp.launch(probe_misfit, dim=N_FIELD, inputs=[th, wp.array(PROBE, dtype=float)], outputs=[loss])
    et0.assign(ET0_NEXT)  # expect: untaped_write
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [1.1, 40.0, 3.0]  # Kc, k_sat (mm/day), beta
FD_EPS = [1e-3, 0.05, 1e-3]

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"probe misfit {l:.4f}  gradient (Kc, k_sat, beta) = {g}")
