# correct: the in-kernel march has a compile-time trip count of 16 (a wp.constant), so Warp unrolls it and the carried depth and slope are differentiated step by step.
"""Acoustic ray arrivals in a deep-ocean sound channel (Munk profile).

Rays leave a source at 1 km depth at several launch angles and are marched in range
through c(z) = c0 (1 + eps (eta - 1 + e^-eta)), eta = 2 (z - z_ax) / B. The arrival
depths at 40 km are matched to the measured ones to estimate the profile strength
eps and the channel-axis depth z_ax. Each ray is marched inside one kernel.
"""
import numpy as np
import warp as wp

ANGLES = np.radians(np.array([-8.0, -5.0, -2.0, 2.0, 5.0, 8.0])).astype(np.float32)
Z_SRC = 1.0       # km
RANGE = 40.0      # km
N_STEPS = 16
MARCH_STEPS = wp.constant(N_STEPS)
MEAS_Z = np.array([3.071, 2.238, 1.623, 1.166, 1.401, 2.428], dtype=np.float32)  # km
PARAMS0 = np.array([0.0057, 1.3])  # eps, z_ax (km)
FD_EPS = [2e-5, 1e-3]


@wp.func
def dlnc_dz(z: float, eps: float, z_ax: float):
    eta = 2.0 * (z - z_ax) / 1.3
    return eps * (1.0 - wp.exp(-eta)) * 2.0 / 1.3


@wp.kernel
def march(ang: wp.array(dtype=float), prm: wp.array(dtype=float), z0: float, dr: float, n_steps: int,
          z_end: wp.array(dtype=float)):
    i = wp.tid()
    z = z0
    slope = wp.tan(ang[i])
    for s in range(MARCH_STEPS):
        slope = slope - dr * dlnc_dz(z, prm[0], prm[1]) * (1.0 + slope * slope)
        z = z + dr * slope
    z_end[i] = z


@wp.kernel
def arrival_misfit(z_end: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = z_end[i] - meas[i]
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    z_end = wp.zeros(len(ANGLES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(march, dim=len(ANGLES), inputs=[wp.array(ANGLES, dtype=float), prm, Z_SRC, RANGE / N_STEPS, N_STEPS],
                  outputs=[z_end])
        wp.launch(arrival_misfit, dim=len(ANGLES), inputs=[z_end, wp.array(MEAS_Z, dtype=float)], outputs=[loss])
    tape.backward(loss)
    evaluate.z_end = z_end.numpy().copy()
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"arrival depths {np.round(evaluate.z_end, 3)} km; misfit {L:.5f}; d/d(eps, z_ax) = {g}")
