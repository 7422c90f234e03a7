"""Fouling resistance of a refinery preheat train from outlet temperatures.

Thirty counter-flow exchangers (two service groups) with known clean U, area,
flows and inlet temperatures; the hot-side outlet temperature follows from the
NTU-effectiveness relation with U = 1 / (1/U_clean + R_f). Fitted: the fouling
resistance of each service group and a common area-efficiency factor. The host
reports the flow-weighted mean squared outlet error; backward is seeded by
filling the gradient of the per-exchanger error array.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_HX = 30
PARAMS0 = np.array([2.0, 4.5, 0.95])  # R_f group A, group B [1e-4 m^2 K / W], area factor


def plant_data(seed=13):
    rng = np.random.default_rng(seed)
    u_clean = rng.uniform(350.0, 700.0, N_HX)
    area = rng.uniform(80.0, 260.0, N_HX)
    c_hot = np.exp(rng.uniform(np.log(8e3), np.log(300e3), N_HX))  # W/K
    c_cold = c_hot * rng.uniform(0.8, 1.4, N_HX)
    th_in = rng.uniform(220.0, 340.0, N_HX)
    tc_in = rng.uniform(40.0, 160.0, N_HX)
    group = (np.arange(N_HX) % 3 == 0).astype(np.float32)  # 1: service group B
    flow = c_hot / 2.4e3  # hot-side mass flow [kg/s] (cp ~ 2.4 kJ/kg K)
    rf = np.where(group > 0, 6.0e-4, 2.5e-4)
    u = 1.0 / (1.0 / u_clean + rf)
    ntu = u * area * 0.9 / np.minimum(c_hot, c_cold)
    cr = np.minimum(c_hot, c_cold) / np.maximum(c_hot, c_cold)
    eff = (1 - np.exp(-ntu * (1 - cr))) / (1 - cr * np.exp(-ntu * (1 - cr)))
    th_out = th_in - eff * np.minimum(c_hot, c_cold) / c_hot * (th_in - tc_in) + 0.4 * rng.standard_normal(N_HX)
    cols = np.stack([u_clean, area, c_hot, c_cold, th_in, tc_in, group, th_out], axis=1)
    return cols.astype(np.float32), flow.astype(np.float32)


DATA, FLOW = plant_data()


@wp.func
def effectiveness(ntu: float, cr: float):
    x = wp.exp(-ntu * (1.0 - cr))
    return (1.0 - x) / (1.0 - cr * x)


@wp.kernel
def outlet_error(d: wp.array2d(dtype=float), prm: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    rf = (prm[0] * (1.0 - d[i, 6]) + prm[1] * d[i, 6]) * 1.0e-4
    u = 1.0 / (1.0 / d[i, 0] + rf)
    cmin = wp.min(d[i, 2], d[i, 3])
    cmax = wp.max(d[i, 2], d[i, 3])
    ntu = u * d[i, 1] * prm[2] / cmin
    th_out = d[i, 4] - effectiveness(ntu, cmin / cmax) * cmin / d[i, 2] * (d[i, 4] - d[i, 5])
    e = th_out - d[i, 7]
    err[i] = e * e


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    err = wp.zeros(N_HX, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(outlet_error, dim=N_HX, inputs=[wp.array(DATA, dtype=float), prm], outputs=[err])
    e = err.numpy().astype(np.float64)
    loss = float(np.sum(FLOW * e) / np.sum(FLOW))
    err.grad.fill_(1.0 / N_HX)  # expect: seeding
    tape.backward()
    return loss, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"flow-weighted mean squared outlet error {L:.3f} K^2; d/d(Rf_A, Rf_B, area) = {g}")
