# correct: ball throw with penalty contact and smooth friction where each step writes a freshly allocated spatial_vector buffer and the state name is rebound to it
import numpy as np
import warp as wp

DT = wp.constant(0.01)
STEPS = 80
N = 6
KE = wp.constant(400.0)
MU = wp.constant(0.4)


@wp.func
def contact_force(z: float, vz: float, vx: float):
    pen = wp.log(1.0 + wp.exp(-z / 0.02)) * 0.02
    fn = KE * pen - 5.0 * vz * pen / (pen + 0.02)
    ft = -MU * fn * wp.tanh(vx / 0.2)
    return wp.vec2(ft, fn)


@wp.kernel
def ball_step(q: wp.array(dtype=wp.spatial_vector), q_next: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    s = q[i]
    p = wp.spatial_top(s)
    v = wp.spatial_bottom(s)
    f = contact_force(p[2], v[2], v[0])
    a = wp.vec3(f[0], 0.0, f[1] - 9.81)
    v1 = v + DT * a
    q_next[i] = wp.spatial_vector(p + DT * v1, v1)


@wp.kernel
def landing_cost(q: wp.array(dtype=wp.spatial_vector), goal: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    p = wp.spatial_top(q[i])
    d = p[0] - goal[i]
    wp.atomic_add(cost, 0, d * d + p[2] * p[2])


GOALS = np.linspace(1.0, 1.6, N)
PARAMS0 = np.array([1.8, 2.2])


def evaluate(p):
    init = np.zeros((N, 6))
    init[:, 2] = np.linspace(0.3, 0.5, N)
    init[:, 3] = p[0]
    init[:, 5] = p[1]
    v0 = wp.array(init, dtype=wp.spatial_vector, requires_grad=True)
    q = wp.clone(v0)
    goal = wp.array(GOALS, dtype=float)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        q = wp.clone(v0)
        for _ in range(STEPS):
            q_next = wp.empty_like(q)
            wp.launch(ball_step, dim=N, inputs=[q], outputs=[q_next])
            q = q_next
        wp.launch(landing_cost, dim=N, inputs=[q, goal], outputs=[cost])
    tape.backward(cost)
    g = v0.grad.numpy()
    return float(cost.numpy()[0]), np.array([g[:, 3].sum(), g[:, 5].sum()])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("cost", loss, "d/d(vx0, vz0)", g)
