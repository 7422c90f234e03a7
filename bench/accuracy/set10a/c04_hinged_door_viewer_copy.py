# correct: a viewer frame is recentred in NumPy between recording and backward, but on a .copy() of the taped transforms
"""A heavy door (rigid body on a hinge, quaternion orientation) is pushed
open; find the push impulse that makes it swing to a target angle against
the closer's torsional spring. A viewer frame is prepared each evaluation.
"""
import numpy as np
import warp as wp

DT = 0.01
STEPS = 60
HINGE_AXIS = wp.constant(wp.vec3(0.0, 1.0, 0.0))
I_HINGE = 8.0
K_CLOSER = 6.0
C_CLOSER = 2.0
DOOR_W = 0.9


@wp.kernel
def door_step(X: wp.array(dtype=wp.transform), omega: wp.array(dtype=float), dt: float,
              X_out: wp.array(dtype=wp.transform), omega_out: wp.array(dtype=float)):
    q = wp.transform_get_rotation(X[0])
    # hinge angle from the door's local x axis
    ax = wp.quat_rotate(q, wp.vec3(1.0, 0.0, 0.0))
    angle = wp.atan2(-ax[2], ax[0])
    w1 = omega[0] + dt * (-K_CLOSER * angle - C_CLOSER * omega[0] * wp.abs(omega[0])) / I_HINGE
    dq = wp.quat_from_axis_angle(HINGE_AXIS, w1 * dt)
    q1 = wp.normalize(dq * q)
    p1 = wp.quat_rotate(q1, wp.vec3(0.5 * DOOR_W, 0.0, 0.0))
    omega_out[0] = w1
    X_out[0] = wp.transform(p1, q1)


@wp.kernel
def handle_loss(X: wp.array(dtype=wp.transform), target: wp.vec3, loss: wp.array(dtype=float)):
    h = wp.transform_point(X[0], wp.vec3(0.4 * DOOR_W, 0.0, 0.0))
    d = h - target
    loss[0] = wp.dot(d, d)


@wp.kernel
def apply_push(impulse: wp.array(dtype=float), omega: wp.array(dtype=float)):
    omega[0] = impulse[0] * DOOR_W / I_HINGE


HINGE_POS = np.array([0.0, 1.0, 0.0], dtype=np.float32)
TARGET = wp.vec3(0.55, 0.0, -0.6)
frames = []


def evaluate(p):
    impulse = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    X = wp.array([[0.5 * DOOR_W, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]], dtype=wp.transform, requires_grad=True)
    omega = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(apply_push, dim=1, inputs=[impulse], outputs=[omega])
        for _ in range(STEPS):
            X1, om1 = wp.empty_like(X), wp.empty_like(omega)
            wp.launch(door_step, dim=1, inputs=[X, omega, DT], outputs=[X1, om1])
            X, omega = X1, om1
        wp.launch(handle_loss, dim=1, inputs=[X, TARGET], outputs=[loss])
    frame = X.numpy().copy()
    frame[:, 0:3] += HINGE_POS  # world frame for the viewer
    frames.append(frame)
    tape.backward(loss)
    return float(loss.numpy()[0]), impulse.grad.numpy().copy()


PARAMS0 = np.array([12.0])
FD_EPS = 1e-2

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("handle miss", l, "d/d impulse", g, "frame", frames[-1])
