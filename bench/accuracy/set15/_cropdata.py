"""County-level maize yields with growing-season weather (synthetic, Corn Belt-like)."""
import numpy as np

N_COUNTY = 96


def county_table(seed=19):
    rng = np.random.default_rng(seed)
    gdd = rng.uniform(1.9, 3.1, N_COUNTY)  # growing degree days / 1000
    rain = rng.uniform(0.25, 0.75, N_COUNTY)  # growing-season rain [m]
    hot = rng.uniform(0.0, 1.8, N_COUNTY)  # extreme-heat degree days / 100
    y = 3.1 * gdd + 9.0 * rain - 6.5 * rain * rain - 1.4 * hot * hot + 0.25 * rng.standard_normal(N_COUNTY)
    x = np.stack([gdd, rain, hot], axis=1)
    return x.astype(np.float32), y.astype(np.float32)  # yield in t/ha
