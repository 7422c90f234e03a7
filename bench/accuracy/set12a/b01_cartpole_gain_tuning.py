import numpy as np
import warp as wp

DT = wp.constant(0.02)
STEPS = 50
N = 8


@wp.func
def cartpole_accel(s: wp.vec4, u: float):
    mc = 1.0
    mp = 0.1
    half_len = 0.5
    sn = wp.sin(s[1])
    cs = wp.cos(s[1])
    tmp = (u + mp * half_len * s[3] * s[3] * sn) / (mc + mp)
    alpha = (9.81 * sn - cs * tmp) / (half_len * (4.0 / 3.0 - mp * cs * cs / (mc + mp)))
    acc = tmp - mp * half_len * alpha * cs / (mc + mp)
    return wp.vec2(acc, alpha)


@wp.kernel
def step(x: wp.array(dtype=wp.vec4), gains: wp.array(dtype=wp.vec4), x_out: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    s = x[i]
    u = -wp.dot(gains[0], s)
    a = cartpole_accel(s, u)
    v = s[2] + DT * a[0]
    w = s[3] + DT * a[1]
    x_out[i] = wp.vec4(s[0] + DT * v, s[1] + DT * w, v, w)


@wp.kernel
def stage_cost(x: wp.array(dtype=wp.vec4), cost: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i]
    c = s[0] * s[0] + 10.0 * s[1] * s[1] + 0.1 * s[2] * s[2] + 0.1 * s[3] * s[3]
    wp.atomic_add(cost, 0, c / float(N * STEPS))


rng = np.random.default_rng(3)
X0 = np.column_stack([rng.uniform(-0.3, 0.3, N), rng.uniform(-0.15, 0.15, N), np.zeros(N), np.zeros(N)])
PARAMS0 = np.array([-1.0, -25.0, -2.0, -4.0])


def evaluate(p):
    gains = wp.array([wp.vec4(*p)], dtype=wp.vec4, requires_grad=True)
    a = wp.array(X0, dtype=wp.vec4, requires_grad=True)
    b = wp.empty_like(a)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            wp.launch(step, dim=N, inputs=[a, gains], outputs=[b])
            wp.launch(stage_cost, dim=N, inputs=[b], outputs=[cost])
            a, b = b, a  # expect: overwrite
    tape.backward(cost)
    return float(cost.numpy()[0]), gains.grad.numpy()[0].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("cost", loss, "dcost/dK", g)
