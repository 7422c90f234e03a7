"""Tune the state-feedback gains of a cart-pole balancing controller by
differentiating the accumulated cost of a recovery from a push."""
import numpy as np
import warp as wp

from _cartpole_control import state_feedback

DT = 0.01
STEPS = 150
M_CART, M_POLE, L_POLE = 1.0, 0.2, 0.5


@wp.kernel
def cartpole_step(state: wp.array(dtype=wp.vec4), u: wp.array(dtype=float), dt: float,
                  state_out: wp.array(dtype=wp.vec4)):
    s = state[0]  # (x, theta, xdot, thetadot)
    th = s[1]
    sin_t = wp.sin(th)
    cos_t = wp.cos(th)
    total = M_CART + M_POLE
    tmp = (u[0] + M_POLE * L_POLE * s[3] * s[3] * sin_t) / total
    th_acc = (9.81 * sin_t - cos_t * tmp) / (L_POLE * (4.0 / 3.0 - M_POLE * cos_t * cos_t / total))
    x_acc = tmp - M_POLE * L_POLE * th_acc * cos_t / total
    xd = s[2] + dt * x_acc
    thd = s[3] + dt * th_acc
    state_out[0] = wp.vec4(s[0] + dt * xd, th + dt * thd, xd, thd)


@wp.kernel
def stage_cost(state: wp.array(dtype=wp.vec4), u: wp.array(dtype=float), cost: wp.array(dtype=float)):
    s = state[0]
    wp.atomic_add(cost, 0, (10.0 * s[1] * s[1] + s[0] * s[0] + 0.1 * s[3] * s[3] + 1e-3 * u[0] * u[0]) * 0.01)


def evaluate(p):
    gains = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    state = wp.array([[0.0, 0.15, 0.0, 0.5]], dtype=wp.vec4, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            u = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(state_feedback, dim=1, inputs=[state, gains], outputs=[u])
            nxt = wp.empty_like(state)
            wp.launch(cartpole_step, dim=1, inputs=[state, u, DT], outputs=[nxt])
            wp.launch(stage_cost, dim=1, inputs=[nxt, u], outputs=[cost])
            state = nxt
    tape.backward(cost)
    return float(cost.numpy()[0]), gains.grad.numpy().copy()


PARAMS0 = np.array([-2.0, -30.0, -3.0, -6.0])
FD_EPS = 1e-2

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        l, g = evaluate(p)
        print(f"iter {it}: cost {l:.5f} gains {p} grad {g}")
        p = p - 0.5 * g
