"""A 2-D spring-network soft robot (a small truss of point masses) with three
actuated springs whose rest lengths are modulated by the control amplitudes.
Find the amplitudes that move the robot's head node onto a target.

A custom-gradient length function keeps the spring direction well defined
for degenerate (collapsed) springs.
"""
import numpy as np
import warp as wp

DT = 0.005
STEPS = 60
KE = 300.0
KD = 1.5


@wp.func
def safe_length(v: wp.vec2):
    return wp.sqrt(wp.dot(v, v) + 1.0e-10)


@wp.func_grad(safe_length)
def adj_safe_length(v: wp.vec2, adj_ret: float):
    l = wp.sqrt(wp.dot(v, v) + 1.0e-10)
    wp.adjoint[v] = adj_ret * v / l  # expect: custom_adjoint


@wp.kernel
def truss_forces(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), edges: wp.array2d(dtype=wp.int32),
                 rest: wp.array(dtype=float), actuator: wp.array(dtype=wp.int32), amp: wp.array(dtype=float),
                 phase: float, f: wp.array(dtype=wp.vec2)):
    e = wp.tid()
    i = edges[e, 0]
    j = edges[e, 1]
    d = x[j] - x[i]
    l = safe_length(d)
    n = d / l
    r = rest[e]
    a = actuator[e]
    if a >= 0:
        r = r * (1.0 + amp[a] * wp.sin(phase + 2.0 * float(a)))
    c = KE * (l - r) + KD * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def step(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2), dt: float,
         x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v1 = 0.99 * v[i] + dt * f[i] / 0.05
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def head_loss(x: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    d = x[4] - target
    loss[0] = wp.dot(d, d)


X0 = np.array([[0.0, 0.0], [0.2, 0.0], [0.1, 0.15], [0.3, 0.15], [0.4, 0.0]], dtype=np.float32)
EDGES = np.array([[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [3, 4], [1, 4]], dtype=np.int32)
ACT = np.array([-1, 0, -1, 1, -1, 2, -1], dtype=np.int32)
edges = wp.array(EDGES, dtype=wp.int32)
rest = wp.array(np.linalg.norm(X0[EDGES[:, 1]] - X0[EDGES[:, 0]], axis=1).astype(np.float32), dtype=float)
actuator = wp.array(ACT, dtype=wp.int32)
TARGET = wp.vec2(0.45, 0.08)


def evaluate(p):
    amp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec2, requires_grad=True)
    v = wp.zeros(len(X0), dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(truss_forces, dim=len(EDGES), inputs=[x, v, edges, rest, actuator, amp, 0.15 * s], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(step, dim=len(X0), inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(head_loss, dim=1, inputs=[x, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


PARAMS0 = np.array([0.2, -0.1, 0.15])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("head miss", l, "d/d amplitudes", g)
