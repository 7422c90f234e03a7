"""Identify the length and damping of a swinging pendulum from angles logged at the end of
three recording windows; each window is differentiated as soon as it is simulated."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

WINDOWS = 3
STEPS_PER_WINDOW = 25
DT = 0.02
LOGGED = [0.55, -0.35, -0.62]


@wp.kernel
def pendulum_step(th: wp.array(dtype=wp.float64), om: wp.array(dtype=wp.float64), params: wp.array(dtype=wp.float64),
                  dt: wp.float64, th_out: wp.array(dtype=wp.float64), om_out: wp.array(dtype=wp.float64)):
    L = params[0]
    c = params[1]
    w = om[0] - dt * (wp.float64(9.81) / L * wp.sin(th[0]) + c * om[0])
    om_out[0] = w
    th_out[0] = th[0] + dt * w


@wp.kernel
def angle_misfit(th: wp.array(dtype=wp.float64), logged: wp.float64, loss: wp.array(dtype=wp.float64)):
    r = th[0] - logged
    loss[0] = r * r


def windowed_gradient(p):
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    th_carry = wp.array([1.0], dtype=wp.float64)
    om_carry = wp.array([0.0], dtype=wp.float64)
    total = 0.0
    for w in range(WINDOWS):
        th = [wp.clone(th_carry, requires_grad=True)] + \
             [wp.zeros(1, dtype=wp.float64, requires_grad=True) for _ in range(STEPS_PER_WINDOW)]
        om = [wp.clone(om_carry, requires_grad=True)] + \
             [wp.zeros(1, dtype=wp.float64, requires_grad=True) for _ in range(STEPS_PER_WINDOW)]
        loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
        tape = wp.Tape()  # expect: truncation
        with tape:
            for k in range(STEPS_PER_WINDOW):
                wp.launch(pendulum_step, dim=1, inputs=[th[k], om[k], params, wp.float64(DT)],
                          outputs=[th[k + 1], om[k + 1]])
            wp.launch(angle_misfit, dim=1, inputs=[th[-1], wp.float64(LOGGED[w])], outputs=[loss])
        tape.backward(loss)
        total += float(loss.numpy()[0])
        wp.copy(th_carry, th[-1])
        wp.copy(om_carry, om[-1])
    return total, params.grad.numpy().copy()


PARAMS0 = np.array([1.2, 0.3])
FD_EPS = 1e-6


def evaluate(p):
    return windowed_gradient(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = windowed_gradient(p)
        p = p - 0.1 * g
        print(f"iter {it}: misfit {l:.5f}  L={p[0]:.4f} c={p[1]:.4f}")
