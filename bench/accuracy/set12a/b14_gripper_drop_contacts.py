import numpy as np
import warp as wp

from _contact import MARGIN, advance, apply_contacts, free_flight, ground_force

N = 8
STEPS = 40


@wp.kernel
def collide(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), count: wp.array(dtype=int),
            idx: wp.array(dtype=int), force: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = x[i]
    if p[2] < MARGIN:
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        idx[slot] = i
        force[slot] = ground_force(p, v[i])


@wp.kernel
def rest_cost(x: wp.array(dtype=wp.vec3), goal: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - goal
    wp.atomic_add(cost, 0, wp.dot(d, d) / float(N))


rng = np.random.default_rng(5)
X0 = np.column_stack([rng.uniform(-0.1, 0.1, N), rng.uniform(-0.1, 0.1, N), rng.uniform(0.05, 0.25, N)])
PARAMS0 = np.array([0.8, -0.3])


def evaluate(p):
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v0 = wp.array(np.tile([p[0], p[1], 0.0], (N, 1)), dtype=wp.vec3, requires_grad=True)
    v = v0
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            count = wp.zeros(1, dtype=int)
            idx = wp.zeros(N, dtype=int)
            force = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(collide, dim=N, inputs=[x, v, count], outputs=[idx, force])
            v_new = wp.empty_like(v)
            wp.launch(free_flight, dim=N, inputs=[x, v], outputs=[v_new])
            wp.launch(apply_contacts, dim=N, inputs=[idx, force], outputs=[v_new])
            x_new = wp.empty_like(x)
            wp.launch(advance, dim=N, inputs=[x, v_new], outputs=[x_new])
            x, v = x_new, v_new
        wp.launch(rest_cost, dim=N, inputs=[x, wp.vec3(0.3, -0.1, 0.0)], outputs=[cost])
    tape.backward(cost)
    g = v0.grad.numpy()
    return float(cost.numpy()[0]), np.array([g[:, 0].sum(), g[:, 1].sum()])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("rest cost", loss, "grad", g)
