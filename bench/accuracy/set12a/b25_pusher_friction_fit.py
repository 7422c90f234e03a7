import numpy as np
import warp as wp

DT = wp.constant(0.01)
STEPS = 80
VS = wp.constant(0.1)
MASS = wp.constant(1.5)


@wp.func
def smooth_coulomb(v: float, mu_n: float):
    return -mu_n * wp.tanh(v / VS)


@wp.func_grad(smooth_coulomb)
def adj_smooth_coulomb(v: float, mu_n: float, adj_ret: float):
    t = wp.tanh(v / VS)
    wp.adjoint[v] += -mu_n * (1.0 - t * t) * adj_ret  # expect: custom_adjoint
    wp.adjoint[mu_n] += -t * adj_ret


@wp.kernel
def push_step(s: wp.array(dtype=wp.vec2), push: wp.array(dtype=float), mu: wp.array(dtype=float), t: int,
              s_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x = s[i]
    phase = float(t) * DT
    f_push = push[0] * wp.exp(-4.0 * (phase - 0.3) * (phase - 0.3)) * (1.0 + 0.2 * float(i))
    f = f_push + smooth_coulomb(x[1], mu[0] * MASS * 9.81)
    v = x[1] + DT * f / MASS
    s_out[i] = wp.vec2(x[0] + DT * v, v)


@wp.kernel
def slide_error(s: wp.array(dtype=wp.vec2), target: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = s[i][0] - target[i]
    wp.atomic_add(cost, 0, d * d + 0.1 * s[i][1] * s[i][1])


PARAMS0 = np.array([9.0, 0.5])


def evaluate(p):
    push = wp.array([p[0]], dtype=float, requires_grad=True)
    mu = wp.array([p[1]], dtype=float, requires_grad=True)
    s = wp.zeros(3, dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            s_new = wp.empty_like(s)
            wp.launch(push_step, dim=3, inputs=[s, push, mu, t], outputs=[s_new])
            s = s_new
        wp.launch(slide_error, dim=3, inputs=[s, wp.array([0.3, 0.4, 0.5], dtype=float)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), np.array([push.grad.numpy()[0], mu.grad.numpy()[0]])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("slide error", loss, "grad", g)
