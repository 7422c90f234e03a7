"""Frozen and thawed thermal conductivity of a permafrost soil column from a borehole profile.

Explicit 1-D heat conduction over 40 nodes (0.4 m) through one thaw season
(120 days, 0.5-day steps) driven by the ground-surface temperature; the
conductivity switches smoothly between frozen and thawed values around 0 C.
The end-of-season temperatures at four borehole depths are fitted. Two
temperature buffers are swapped after every step.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_Z = 40
DZ = 0.4  # m
N_STEP = 240
DT = 0.5 * 86400.0  # s
HEAT_CAP = 2.2e6  # J / m^3 K
DEPTHS = np.array([2, 5, 9, 16], dtype=np.int32)
OBS = np.array([4.1, -0.6, -3.2, -5.1], dtype=np.float32)
PARAMS0 = np.array([1.9, 1.1])  # k frozen, k thawed [W/m K]
FD_EPS = np.array([1e-3, 1e-3])


@wp.func
def conductivity(t: float, prm: wp.array(dtype=float)):
    s = 1.0 / (1.0 + wp.exp(-t / 0.5))
    return prm[0] + (prm[1] - prm[0]) * s


@wp.kernel
def conduct(u: wp.array(dtype=float), prm: wp.array(dtype=float), t_surf: float, u_new: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0:
        u_new[i] = t_surf
    elif i == N_Z - 1:
        u_new[i] = u[i]
    else:
        k_up = 0.5 * (conductivity(u[i - 1], prm) + conductivity(u[i], prm))
        k_dn = 0.5 * (conductivity(u[i], prm) + conductivity(u[i + 1], prm))
        flux = (k_up * (u[i - 1] - u[i]) - k_dn * (u[i] - u[i + 1])) / (DZ * DZ)
        u_new[i] = u[i] + DT * flux / HEAT_CAP


@wp.kernel
def borehole_misfit(u: wp.array(dtype=float), depth: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                    loss: wp.array(dtype=float)):
    k = wp.tid()
    d = u[depth[k]] - obs[k]
    wp.atomic_add(loss, 0, d * d)


def surface_temperature(step):
    day = step * 0.5
    return -8.0 + 20.0 * np.sin(np.pi * day / 120.0)


def initial_profile():
    z = np.arange(N_Z) * DZ
    return (-8.0 + 2.0 * (1.0 - np.exp(-z / 3.0))).astype(np.float32)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    u = wp.array(initial_profile(), dtype=float, requires_grad=True)
    u_new = wp.zeros(N_Z, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for step in range(N_STEP):
            wp.launch(conduct, dim=N_Z, inputs=[u, prm, float(surface_temperature(step))], outputs=[u_new])
            u, u_new = u_new, u  # expect: overwrite
        wp.launch(borehole_misfit, dim=len(DEPTHS), inputs=[u, wp.array(DEPTHS, dtype=wp.int32),
                                                           wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"borehole misfit {L:.3f} K^2; d/d(k_frozen, k_thawed) = {g}")
