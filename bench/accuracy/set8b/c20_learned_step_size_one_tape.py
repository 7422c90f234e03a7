# correct: all windows are recorded on one tape and differentiated once, so the step size's effect carries across windows
"""Meta-learn the step size of an unrolled gradient-descent solver (learning to optimise).

The inner solver runs gradient descent on a least-squares problem; the outer
objective is the validation error at the end of every window of inner steps,
summed over the windows. The windows are recorded one after the other on a
single tape, each continuing from the state the previous one ended in.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_WINDOWS = 3
STEPS = 3


@wp.kernel
def gd_step(w: wp.array(dtype=wp.vec2), A: wp.array(dtype=wp.mat22), b: wp.array(dtype=wp.vec2),
            log_lr: wp.array(dtype=float), w_out: wp.array(dtype=wp.vec2)):
    lr = wp.exp(log_lr[0])
    g = A[0] * w[0] - b[0]
    w_out[0] = w[0] - lr * g


@wp.kernel
def validation(w: wp.array(dtype=wp.vec2), w_val: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    d = w[0] - w_val[0]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def problem():
    A = wp.array([np.array([[2.0, 0.3], [0.3, 0.8]], dtype=np.float32)], dtype=wp.mat22)
    b = wp.array([np.array([1.0, -0.5], dtype=np.float32)], dtype=wp.vec2)
    w_val = wp.array([np.array([0.7, -0.8], dtype=np.float32)], dtype=wp.vec2)
    return A, b, w_val


def meta_objective(p):
    """Returns (sum of window validation losses, d/dlog_lr as accumulated over the window tapes)."""
    A, b, w_val = problem()
    log_lr = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    state = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
    losses = [wp.zeros(1, dtype=float, requires_grad=True) for _ in range(N_WINDOWS)]
    objective = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for win in range(N_WINDOWS):
        states = [state] + [wp.zeros(1, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)]
        with tape:
            for s in range(STEPS):
                wp.launch(gd_step, dim=1, inputs=[states[s], A, b, log_lr], outputs=[states[s + 1]])
            wp.launch(validation, dim=1, inputs=[states[-1], w_val], outputs=[losses[win]])
            wp.launch(validation, dim=1, inputs=[states[-1], w_val], outputs=[objective])
        state = states[-1]
    tape.backward(objective)
    total = float(objective.numpy()[0])
    return total, log_lr.grad.numpy().astype(np.float64)


PARAMS0 = np.array([np.log(0.2)])


def evaluate(p):
    return meta_objective(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(15):
        obj, g = meta_objective(p)
        p -= 0.2 * g
        if it % 5 == 0:
            print(f"outer iter {it:2d} objective {obj:.5f} lr {np.exp(p[0]):.4f}")
    print("learned step size", float(np.exp(p[0])))
