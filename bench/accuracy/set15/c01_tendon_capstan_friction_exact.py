# correct: b01_tendon_capstan_friction (a branchy @wp.func_grad for the capstan law; the pay-out branch carries the +theta sign)
"""Friction identification for a tendon-driven finger (capstan model).

The flexor tendon wraps four guide pulleys between the motor and the fingertip.
Each pulley scales the tension by exp(-mu * theta) while the tendon is being
pulled and by exp(+mu * theta) while it is paid out (the friction always opposes
the motion). The capstan law has a hand-written adjoint with one branch per
direction. Fitted: the friction coefficient mu and the tip moment arm r.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PULLEY = wp.constant(4)
WRAP = np.array([0.62, 1.10, 0.85, 1.35], dtype=np.float32)  # rad
PARAMS0 = np.array([0.085, 1.25])  # mu, moment arm r [cm]
FD_EPS = np.array([1e-4, 1e-3])


@wp.func
def capstan(t_in: float, mu: float, theta: float, v: float):
    if v > 0.0:
        return t_in * wp.exp(-mu * theta)
    else:
        return t_in * wp.exp(mu * theta)


@wp.func_grad(capstan)
def adj_capstan(t_in: float, mu: float, theta: float, v: float, adj_ret: float):
    if v > 0.0:
        g = wp.exp(-mu * theta)
        wp.adjoint[t_in] += adj_ret * g
        wp.adjoint[mu] += -adj_ret * t_in * theta * g
    else:
        g = wp.exp(mu * theta)
        wp.adjoint[t_in] += adj_ret * g
        wp.adjoint[mu] += adj_ret * t_in * theta * g


@wp.kernel
def tip_torque_misfit(t_motor: wp.array(dtype=float), vel: wp.array(dtype=float), wrap: wp.array(dtype=float),
                      meas: wp.array(dtype=float), prm: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    t = t_motor[i]
    for j in range(N_PULLEY):
        t = capstan(t, prm[0], wrap[j], vel[i])
    tau = t * prm[1] * 0.01
    d = (tau - meas[i]) * 100.0
    wp.atomic_add(loss, 0, d * d)


def trials():
    rng = np.random.default_rng(11)
    t_motor = rng.uniform(8.0, 40.0, 24).astype(np.float32)
    vel = np.where(np.arange(24) % 3 == 0, -1.0, 1.0).astype(np.float32)  # a third of the trials pay out
    g = np.exp(-0.11 * WRAP.sum() * vel)
    meas = (t_motor * g * 0.0131 + 0.002 * rng.standard_normal(24)).astype(np.float32)
    return t_motor, vel, meas


T_MOTOR, VEL, MEAS = trials()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(tip_torque_misfit, dim=len(T_MOTOR),
                  inputs=[wp.array(T_MOTOR, dtype=float), wp.array(VEL, dtype=float), wp.array(WRAP, dtype=float),
                          wp.array(MEAS, dtype=float), prm], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"torque misfit {L:.4f} (cN m)^2; d/d(mu, r) = {g}")
