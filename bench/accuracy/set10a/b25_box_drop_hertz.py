"""Drop a spinning rubber box on the floor and choose its initial spin so it
comes to a target orientation / position after the first impacts.
Rigid body (transform + body-frame angular velocity), Hertz-type
(pen^1.5) corner contacts with damping.
"""
import numpy as np
import warp as wp

from _rigid import quat_advance

DT = 0.004
STEPS = 70
MASS = 1.0
INERTIA = wp.constant(wp.vec3(0.0108, 0.0208, 0.0167))
K_HERTZ = 4.0e4
C_CONTACT = 40.0


@wp.kernel
def box_step(X: wp.array(dtype=wp.transform), v: wp.array(dtype=wp.vec3), w: wp.array(dtype=wp.vec3),
             corners: wp.array(dtype=wp.vec3), dt: float,
             X_out: wp.array(dtype=wp.transform), v_out: wp.array(dtype=wp.vec3), w_out: wp.array(dtype=wp.vec3)):
    com = wp.transform_get_translation(X[0])
    q = wp.transform_get_rotation(X[0])
    f_tot = wp.vec3(0.0, -9.81 * MASS, 0.0)
    tau = wp.vec3(0.0, 0.0, 0.0)
    for c in range(8):
        r = wp.quat_rotate(q, corners[c])
        p = com + r
        vp = v[0] + wp.quat_rotate(q, wp.cross(w[0], corners[c]))
        pen = -p[1]
        fn = wp.where(pen > 0.0, K_HERTZ * wp.pow(pen, 1.5) - C_CONTACT * pen * vp[1], 0.0)  # expect: nonfinite
        fc = wp.vec3(-2.0 * fn * vp[0], fn, -2.0 * fn * vp[2])
        f_tot += fc
        tau += wp.cross(r, fc)
    tau_b = wp.quat_rotate_inv(q, tau)
    wb = w[0]
    w1 = wb + dt * wp.cw_div(tau_b - wp.cross(wb, wp.cw_mul(INERTIA, wb)), INERTIA)
    v1 = v[0] + dt * f_tot / MASS
    w_out[0] = w1
    v_out[0] = v1
    X_out[0] = wp.transform(com + dt * v1, quat_advance(q, w1, dt))


@wp.kernel
def pose_loss(X: wp.array(dtype=wp.transform), target_p: wp.vec3, target_up: wp.vec3, loss: wp.array(dtype=float)):
    p = wp.transform_get_translation(X[0])
    up = wp.quat_rotate(wp.transform_get_rotation(X[0]), wp.vec3(0.0, 1.0, 0.0))
    d = p - target_p
    loss[0] = wp.dot(d, d) + 0.1 * (1.0 - wp.dot(up, target_up))


half = np.array([0.2, 0.1, 0.15])
CORNERS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * half
corners = wp.array(CORNERS.astype(np.float32), dtype=wp.vec3)
q0 = wp.quat_from_axis_angle(wp.normalize(wp.vec3(1.0, 0.0, 1.0)), 0.4)
X_START = [0.0, 0.2, 0.0, q0[0], q0[1], q0[2], q0[3]]


def evaluate(p):
    X = wp.array([X_START], dtype=wp.transform, requires_grad=True)
    v = wp.array([[0.5, 0.0, 0.0]], dtype=wp.vec3, requires_grad=True)
    w = wp.array([np.asarray(p, dtype=np.float32)], dtype=wp.vec3, requires_grad=True)
    w_init = w
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            X1, v1, w1 = wp.empty_like(X), wp.empty_like(v), wp.empty_like(w)
            wp.launch(box_step, dim=1, inputs=[X, v, w, corners, DT], outputs=[X1, v1, w1])
            X, v, w = X1, v1, w1
        wp.launch(pose_loss, dim=1, inputs=[X, wp.vec3(0.3, 0.1, 0.05), wp.vec3(0.0, 1.0, 0.0)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), w_init.grad.numpy()[0].copy()


PARAMS0 = np.array([1.0, 2.0, -1.0])
FD_EPS = 3e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("pose loss", l, "d/d spin", g)
