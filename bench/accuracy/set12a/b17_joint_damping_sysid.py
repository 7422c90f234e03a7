import numpy as np
import warp as wp

DT = wp.constant(0.05)
STEPS = 40


@wp.kernel
def pendulum_joint(q: wp.array(dtype=float), qd: wp.array(dtype=float), damping: wp.array(dtype=float),
                   q_out: wp.array(dtype=float), qd_out: wp.array(dtype=float)):
    i = wp.tid()
    acc = -9.81 / 0.7 * wp.sin(q[i])
    qd_new = qd[i] + DT * acc
    qd_out[i] = qd_new
    qd_out[i] *= wp.exp(-damping[0] * DT)  # expect: inplace_op
    q_out[i] = q[i] + DT * qd_new * wp.exp(-damping[0] * DT)


@wp.kernel
def fit_error(q: wp.array(dtype=float), measured: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i] - measured[i]
    wp.atomic_add(err, 0, d * d)


def simulate(damping, meas=None):
    q = wp.array([0.9, 0.5, 1.3], dtype=float, requires_grad=True)
    qd = wp.zeros(3, dtype=float, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    traj = []
    with tape:
        for t in range(STEPS):
            q_new, qd_new = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(pendulum_joint, dim=3, inputs=[q, qd, damping], outputs=[q_new, qd_new])
            q, qd = q_new, qd_new
            if meas is not None and t % 10 == 9:
                wp.launch(fit_error, dim=3, inputs=[q, meas[t // 10]], outputs=[err])
            traj.append(q)
    return tape, err, traj


PARAMS0 = np.array([3.0])


def evaluate(p):
    _, _, ref = simulate(wp.array([3.5], dtype=float))
    meas = [wp.array(ref[t].numpy() + 0.01, dtype=float) for t in range(9, STEPS, 10)]
    damping = wp.array(p, dtype=float, requires_grad=True)
    tape, err, _ = simulate(damping, meas)
    tape.backward(err)
    return float(err.numpy()[0]), damping.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("fit error", loss, "d/d damping", g)
