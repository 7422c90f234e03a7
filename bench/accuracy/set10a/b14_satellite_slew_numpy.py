"""Slew manoeuvre of a satellite: find the body-frame reaction torques
(piecewise constant over a few knots) that rotate the spacecraft so that its
camera axis points at a target direction and its spin is damped out.

Rigid-body attitude (quaternion) integrated with the same conventions as
_rigid.py; the update is plain gradient descent done on the host.
"""
import numpy as np
import warp as wp

KNOTS = 3
SUB = 10
DT = 0.05
INERTIA = wp.constant(wp.vec3(2.0, 3.0, 4.0))
CAMERA = wp.constant(wp.vec3(1.0, 0.0, 0.0))


@wp.kernel
def attitude_step(q: wp.array(dtype=wp.quat), w: wp.array(dtype=wp.vec3), torques: wp.array(dtype=wp.vec3),
                  knot: int, dt: float, q_out: wp.array(dtype=wp.quat), w_out: wp.array(dtype=wp.vec3)):
    wb = w[0]
    tau = torques[knot]
    wdot = wp.cw_div(tau - wp.cross(wb, wp.cw_mul(INERTIA, wb)), INERTIA)
    w1 = wb + dt * wdot
    qq = q[0]
    dq = qq * wp.quat(w1[0], w1[1], w1[2], 0.0)
    q_out[0] = wp.normalize(wp.quat(qq[0] + 0.5 * dt * dq[0], qq[1] + 0.5 * dt * dq[1],
                                    qq[2] + 0.5 * dt * dq[2], qq[3] + 0.5 * dt * dq[3]))
    w_out[0] = w1


@wp.kernel
def pointing_loss(q: wp.array(dtype=wp.quat), w: wp.array(dtype=wp.vec3), target: wp.vec3,
                  loss: wp.array(dtype=float)):
    axis = wp.quat_rotate(q[0], CAMERA)
    loss[0] = 1.0 - wp.dot(axis, target) + 0.5 * wp.dot(w[0], w[0])


TARGET = wp.vec3(0.0, 0.6, 0.8)


def slew(torques, requires_grad):
    q = wp.array([[0.0, 0.0, 0.0, 1.0]], dtype=wp.quat, requires_grad=requires_grad)
    w = wp.zeros(1, dtype=wp.vec3, requires_grad=requires_grad)
    for k in range(KNOTS):
        for _ in range(SUB):
            q1, w1 = wp.empty_like(q), wp.empty_like(w)
            wp.launch(attitude_step, dim=1, inputs=[q, w, torques, k, DT], outputs=[q1, w1])
            q, w = q1, w1
    loss = wp.zeros(1, dtype=float, requires_grad=requires_grad)
    wp.launch(pointing_loss, dim=1, inputs=[q, w, TARGET], outputs=[loss])
    return loss


def objective(tau_np):
    return float(slew(wp.array(np.asarray(tau_np, dtype=np.float32), dtype=wp.vec3), False).numpy()[0])


def train(iters, lr=0.3, record=None):
    tau_np = np.array([[0.2, 0.5, 0.5], [0.0, 0.0, 0.0], [-0.1, -0.3, -0.3]], dtype=np.float32)
    torques = wp.array(tau_np, dtype=wp.vec3, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        with tape:
            loss = slew(torques, True)
        tape.backward(loss)
        g = torques.grad.numpy()  # expect: grad_read
        tape.reset()
        if record is not None:
            record.append((tau_np.copy(), g.copy()))
        tau_np = tau_np - lr * g
        torques.assign(tau_np)
        print(f"iter {it}: loss {float(loss.numpy()[0]):.5f}")
    return tau_np


def verify():
    """AD: the gradient the host update used in the 3rd iteration; FD: central
    differences of the slew objective at that iteration's torques."""
    rec = []
    train(3, record=rec)
    tau_used, g_used = rec[-1]
    eps = 1e-3
    fd = np.zeros(tau_used.size)
    for i in range(tau_used.size):
        tp, tm = tau_used.copy().ravel(), tau_used.copy().ravel()
        tp[i] += eps
        tm[i] -= eps
        fd[i] = (objective(tp.reshape(-1, 3)) - objective(tm.reshape(-1, 3))) / (2 * eps)
    return g_used.ravel(), fd


if __name__ == "__main__":
    train(5)
