# correct: PD joint-gain tuning that keeps a retain_grad=True torque array per step, each written by exactly one taped launch
import numpy as np
import warp as wp

DT = wp.constant(0.01)
STEPS = 60
N = 6
Q_REF = wp.constant(wp.vec2(0.8, -0.4))


@wp.kernel
def pd_torque(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), gains: wp.array(dtype=float),
              tau: wp.array(dtype=wp.vec2), effort: wp.array(dtype=float)):
    i = wp.tid()
    t = gains[0] * (Q_REF - q[i]) - gains[1] * qd[i]
    tau[i] = t
    wp.atomic_add(effort, 0, 1.0e-4 * wp.dot(t, t))


@wp.kernel
def joint_step(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), tau: wp.array(dtype=wp.vec2),
               q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s = q[i]
    acc = tau[i] - 9.81 * wp.vec2(wp.sin(s[0]), 0.5 * wp.sin(s[1])) - 0.2 * qd[i]
    v = qd[i] + DT * acc
    qd_out[i] = v
    q_out[i] = s + DT * v


@wp.kernel
def tracking(q: wp.array(dtype=wp.vec2), effort: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i] - Q_REF
    wp.atomic_add(cost, 0, wp.dot(d, d) + effort[0] / float(N))


Q0 = np.column_stack([np.linspace(-0.3, 0.3, N), np.linspace(0.2, -0.2, N)])
PARAMS0 = np.array([30.0, 4.0])
FD_EPS = 1e-2


def evaluate(p):
    gains = wp.array(p, dtype=float, requires_grad=True)
    q = wp.array(Q0, dtype=wp.vec2, requires_grad=True)
    qd = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    taus = [wp.zeros(N, dtype=wp.vec2, requires_grad=True, retain_grad=True) for _ in range(STEPS)]
    effort = wp.zeros(1, dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            wp.launch(pd_torque, dim=N, inputs=[q, qd, gains], outputs=[taus[k], effort])
            q_new, qd_new = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(joint_step, dim=N, inputs=[q, qd, taus[k]], outputs=[q_new, qd_new])
            q, qd = q_new, qd_new
        wp.launch(tracking, dim=N, inputs=[q, effort], outputs=[cost])
    tape.backward(cost)
    peak = max(float(np.abs(t.grad.numpy()).max()) for t in taus)
    return float(cost.numpy()[0]), gains.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("cost", loss, "d/d(kp, kd)", g)
