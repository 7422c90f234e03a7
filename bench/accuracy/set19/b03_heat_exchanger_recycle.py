"""Recycle loop around four parallel shell-and-tube coolers.

Each cooler sees a mix of fresh feed and recycled outlet, T_mix = (1 - rho) T_in
+ rho T_out, and cools it towards the utility temperature with effectiveness
eps = 1 - exp(-NTU), NTU = A / (m cp (1/U + R_f)). The loop temperatures are
found by successive substitution on the tape, then U and the fouling resistance
R_f are fitted to the plant's logged outlet temperatures.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

AREA = np.array([0.3, 0.5, 0.7, 0.9])  # m^2
MCP = 4.0  # kW/K
RHO = 0.97  # recycle fraction
T_IN, T_COLD = 85.0, 15.0
T_LOGGED = np.array([40.0, 30.5, 25.0, 22.5])


@wp.kernel
def cooler_sweep(params: wp.array(dtype=float), area: wp.array(dtype=float), t_old: wp.array(dtype=float),
                 t_new: wp.array(dtype=float)):
    i = wp.tid()
    ntu = area[i] / (MCP * (1.0 / params[0] + params[1]))
    eff = 1.0 - wp.exp(-ntu)
    t_mix = (1.0 - RHO) * T_IN + RHO * t_old[i]
    t_new[i] = t_mix - eff * (t_mix - T_COLD)


@wp.kernel
def outlet_misfit(t: wp.array(dtype=float), logged: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - logged[i]
    wp.atomic_add(loss, 0, 0.25 * d * d)


def loop_loss(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    area = wp.array(AREA, dtype=float)
    logged = wp.array(T_LOGGED, dtype=float)
    t = wp.full(4, T_IN, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for sweep in range(15):  # expect: fixed_point
            t_next = wp.zeros(4, dtype=float, requires_grad=True)
            wp.launch(cooler_sweep, dim=4, inputs=[params, area, t], outputs=[t_next])
            t = t_next
        wp.launch(outlet_misfit, dim=4, inputs=[t, logged], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy(), t.numpy()


def steady_loss64(p):
    """Exact loop equilibrium (float64), the quantity the fit is meant to match."""
    eff = 1.0 - np.exp(-AREA / (MCP * (1.0 / p[0] + p[1])))
    t = ((1 - eff) * (1 - RHO) * T_IN + eff * T_COLD) / (1 - RHO * (1 - eff))
    return 0.25 * np.sum((t - T_LOGGED) ** 2)


PARAMS0 = [0.9, 0.05]


def verify():
    p0 = np.array(PARAMS0, dtype=np.float64)
    _, ad, _ = loop_loss(p0)
    fd = np.zeros(2)
    for k in range(2):
        h = 1e-5 * max(1.0, abs(p0[k]))
        e = np.zeros(2)
        e[k] = h
        fd[k] = (steady_loss64(p0 + e) - steady_loss64(p0 - e)) / (2 * h)
    return ad, fd


if __name__ == "__main__":
    l, g, t = loop_loss(np.array(PARAMS0))
    print(f"steady outlet temperatures {np.round(t, 2)} C, loss {l:.4f}, dL/dU {g[0]:.4f}, dL/dRf {g[1]:.4f}")
