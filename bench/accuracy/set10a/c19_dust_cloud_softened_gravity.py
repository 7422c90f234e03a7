# correct: the pairwise loop includes the self pair (d = 0) under wp.sqrt, but Plummer softening keeps the argument >= eps^2 > 0
"""Self-gravitating dust cloud (softened N-body): estimate the cloud's total
mass parameter and its initial spin from the positions of tracer grains
after a short collapse.
"""
import numpy as np
import warp as wp

N = 12
STEPS = 40
DT = 0.01
EPS2 = 0.0025


@wp.kernel
def gravity(x: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), a: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    acc = wp.vec3(0.0)
    for j in range(N):
        d = x[j] - x[i]
        r = wp.sqrt(wp.dot(d, d) + EPS2)
        acc += params[0] / float(N) * d / (r * r * r)
    a[i] = acc


@wp.kernel
def leapfrog(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), a: wp.array(dtype=wp.vec3), dt: float,
             x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + dt * a[i]
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def spin_up(x: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = params[1] * wp.cross(wp.vec3(0.0, 1.0, 0.0), x[i])


@wp.kernel
def tracer_loss(x: wp.array(dtype=wp.vec3), observed: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - observed[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


rng = np.random.default_rng(4)
X0 = rng.normal(0.0, 0.3, size=(N, 3)).astype(np.float32)
observed = wp.array((0.8 * X0 + 0.02).astype(np.float32), dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(spin_up, dim=N, inputs=[x, params], outputs=[v])
        for _ in range(STEPS):
            a = wp.zeros_like(x)
            wp.launch(gravity, dim=N, inputs=[x, params], outputs=[a])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(leapfrog, dim=N, inputs=[x, v, a, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(tracer_loss, dim=N, inputs=[x, observed], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.5, 0.8])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("tracer misfit", l, "d/d(GM, spin)", g)
