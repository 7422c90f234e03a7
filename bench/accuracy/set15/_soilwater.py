"""Daily soil-water bucket model for eight irrigated fields (30-day dry spell)."""
import numpy as np
import warp as wp

N_FIELD = 8
N_DAY = 30
N_BLOCK = 6  # irrigation decided per 5-day block
ROOT_DEPTH = 400.0  # mm
THETA_STAR = 0.26  # volumetric water content below which the crop is stressed


@wp.kernel
def soil_day(theta: wp.array2d(dtype=float), rain: wp.array2d(dtype=float), et0: wp.array(dtype=float),
             irr: wp.array(dtype=float), t: int, cost: wp.array(dtype=float)):
    f = wp.tid()
    th = theta[t, f]
    et = et0[t] * th / (th + 0.08)  # mm/day, limited in dry soil
    th_new = th + (rain[t, f] + irr[t // 5] - et) / ROOT_DEPTH
    theta[t + 1, f] = th_new
    deficit = wp.log(1.0 + wp.exp(80.0 * (THETA_STAR - th_new))) / 80.0  # smooth max(0, theta* - theta)
    wp.atomic_add(cost, 0, 4.0e3 * deficit * deficit)


@wp.kernel
def water_cost(irr: wp.array(dtype=float), price: float, cost: wp.array(dtype=float)):
    b = wp.tid()
    wp.atomic_add(cost, 0, price * irr[b] * 5.0 * float(N_FIELD))


def weather(seed=21):
    rng = np.random.default_rng(seed)
    rain = np.where(rng.random((N_DAY, N_FIELD)) < 0.1, rng.uniform(2.0, 8.0, (N_DAY, N_FIELD)), 0.0)
    et0 = 4.0 + 2.0 * np.sin(np.linspace(0.0, np.pi, N_DAY))
    theta0 = rng.uniform(0.27, 0.33, N_FIELD)
    return rain.astype(np.float32), et0.astype(np.float32), theta0.astype(np.float32)


def seasonal_cost(theta, rain, et0, irr, price, cost):
    """Launch the 30 daily steps and the water bill (taped if a tape is active)."""
    for t in range(N_DAY):
        wp.launch(soil_day, dim=N_FIELD, inputs=[theta, rain, et0, irr, t], outputs=[cost])
    wp.launch(water_cost, dim=N_BLOCK, inputs=[irr, price], outputs=[cost])
