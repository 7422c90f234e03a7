# correct: retain_grad moment array written by two taped kernels over disjoint frame ranges (stance frames, then airborne frames)
"""Countermovement jump, sagittal knee moment by inverse dynamics: calibrate
shank mass, COM distance and inertia so the moment matches the reference
from an isokinetic-calibrated musculoskeletal model.

Frames before take-off get the stance (foot on the plate) equation, the
airborne frames the free-swing equation (the plate only shows drift once the
foot leaves it). The per-frame moment keeps
its gradient for the sensitivity plot.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

FPS = 200.0
N_FRAME = 120
TAKEOFF = 78
N_FLIGHT = N_FRAME - TAKEOFF
G = 9.81


@wp.struct
class Kinematics:
    theta: wp.array(dtype=float)     # knee flexion (rad)
    theta_dd: wp.array(dtype=float)  # angular acceleration (rad/s^2)
    grf: wp.array(dtype=float)       # vertical ground reaction (N)
    lever: wp.array(dtype=float)     # GRF lever arm about the knee (m)
    hip_acc: wp.array(dtype=float)   # hip vertical acceleration (m/s^2)


@wp.func
def segment_terms(kin: Kinematics, f: int, prm: wp.array(dtype=float)):
    m = prm[0]
    lc = prm[1]
    return (prm[2] + m * lc * lc) * kin.theta_dd[f] + m * G * lc * wp.sin(kin.theta[f])


@wp.kernel
def stance_moment(kin: Kinematics, prm: wp.array(dtype=float), tau: wp.array(dtype=float)):
    f = wp.tid()
    tau[f] = segment_terms(kin, f, prm) - kin.grf[f] * kin.lever[f]


@wp.kernel
def flight_moment(kin: Kinematics, prm: wp.array(dtype=float), first: int, tau: wp.array(dtype=float)):
    f = first + wp.tid()
    tau[f] = segment_terms(kin, f, prm) + prm[0] * prm[1] * kin.hip_acc[f] * wp.cos(kin.theta[f])


@wp.kernel
def moment_misfit(tau: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    f = wp.tid()
    d = tau[f] - ref[f]
    wp.atomic_add(loss, 0, d * d / float(N_FRAME))


def _trial():
    t = np.arange(N_FRAME) / FPS
    theta = 0.3 + 1.1 * np.sin(np.pi * t / 0.55) ** 2
    theta_dd = np.gradient(np.gradient(theta, 1 / FPS), 1 / FPS)
    grf = np.where(np.arange(N_FRAME) < TAKEOFF, 700.0 + 900.0 * np.sin(np.pi * t / 0.39) ** 2, 0.0)
    grf += 15.0 * np.random.default_rng(4).standard_normal(N_FRAME) * (np.arange(N_FRAME) >= TAKEOFF)
    lever = 0.04 + 0.05 * np.sin(theta)
    hip_acc = np.where(np.arange(N_FRAME) < TAKEOFF, 0.0, -G) + 3.0 * np.cos(7.0 * t)
    return [a.astype(np.float32) for a in (theta, theta_dd, grf, lever, hip_acc)]


def _reference(theta, theta_dd, grf, lever, hip_acc, m=3.6, lc=0.19, inertia=0.055):
    seg = (inertia + m * lc * lc) * theta_dd + m * G * lc * np.sin(theta)
    tau = np.where(np.arange(N_FRAME) < TAKEOFF, seg - grf * lever, seg + m * lc * hip_acc * np.cos(theta))
    return (tau + 1.5 * np.random.default_rng(9).standard_normal(N_FRAME)).astype(np.float32)


_data = _trial()
KIN = Kinematics()
KIN.theta, KIN.theta_dd, KIN.grf, KIN.lever, KIN.hip_acc = (wp.array(a, dtype=float) for a in _data)
REF = wp.array(_reference(*_data), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tau = wp.zeros(N_FRAME, dtype=float, requires_grad=True, retain_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(stance_moment, dim=TAKEOFF, inputs=[KIN, prm], outputs=[tau])
        wp.launch(flight_moment, dim=N_FLIGHT, inputs=[KIN, prm, TAKEOFF], outputs=[tau])
        wp.launch(moment_misfit, dim=N_FRAME, inputs=[tau, REF], outputs=[loss])
    tape.backward(loss)
    evaluate.frame_sensitivity = tau.grad.numpy().copy()
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([3.2, 0.17, 0.05])
FD_EPS = np.array([1e-3, 1e-4, 1e-4])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"knee-moment misfit {f:.3f} (N m)^2; d/d(m, l_c, I) = {g}; "
          f"largest frame sensitivity at frame {int(np.argmax(np.abs(evaluate.frame_sensitivity)))}")
