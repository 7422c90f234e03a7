"""Joint-space kernels for the 3-DOF arm in b18 (independent joints with
gravity load, actuated by a PD servo towards a setpoint)."""
import warp as wp

INERTIA = wp.constant(wp.vec3(0.5, 0.3, 0.1))
GRAVITY_LOAD = wp.constant(wp.vec3(3.0, 1.5, 0.4))


@wp.kernel
def servo_torque(q: wp.array(dtype=float), qd: wp.array(dtype=float), setpoint: wp.array(dtype=float),
                 kp: float, kd: float, tau: wp.array(dtype=float)):
    j = wp.tid()
    tau[j] = kp * (setpoint[j] - q[j]) - kd * qd[j]


@wp.kernel
def joint_integrate(q: wp.array(dtype=float), qd: wp.array(dtype=float), tau: wp.array(dtype=float),
                    damping: wp.array(dtype=float), dt: float,
                    q_out: wp.array(dtype=float), qd_out: wp.array(dtype=float)):
    j = wp.tid()
    qdd = (tau[j] - GRAVITY_LOAD[j] * wp.sin(q[j])) / INERTIA[j]
    qd_out[j] = qd[j] + dt * qdd
    qd_out[j] *= damping[j]  # expect: inplace_op
    q_out[j] = q[j] + dt * qd_out[j]
