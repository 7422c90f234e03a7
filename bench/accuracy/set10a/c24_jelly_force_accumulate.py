# correct: several kernels update a force buffer in place with f[i] += ... (accumulation), which Warp differentiates correctly
"""A jelly cube (particles on a lattice joined by springs) sliding down a
ramp: fit spring stiffness and surface friction so that the cube's centre
matches a video frame. Forces are assembled in place by several kernels
(gravity, springs, ramp contact) into a per-step force buffer.
"""
import numpy as np
import warp as wp

STEPS = 40
DT = 0.004
MASS = 0.02
RAMP_N = wp.constant(wp.vec3(0.0, 0.9701425, 0.2425356))  # normal of a plane tilted by ~14 degrees


@wp.kernel
def add_gravity(f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    f[i] += wp.vec3(0.0, -9.81 * MASS, 0.0)


@wp.kernel
def add_springs(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), pairs: wp.array2d(dtype=wp.int32),
                rest: wp.array(dtype=float), params: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = pairs[s, 0]
    j = pairs[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    c = params[0] * (l - rest[s]) + 0.2 * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def add_ramp_contact(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), params: wp.array(dtype=float),
                     f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    pen = -wp.dot(x[i], RAMP_N)
    if pen > 0.0:
        fn = 200.0 * pen
        vt = v[i] - wp.dot(v[i], RAMP_N) * RAMP_N
        f[i] += fn * RAMP_N - params[1] * fn * vt / wp.sqrt(wp.dot(vt, vt) + 0.01)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + dt * f[i] / MASS
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def centre_loss(x: wp.array(dtype=wp.vec3), frame: wp.vec3, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, (x[i][0] - frame[0]) / 8.0)


g = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=np.float32) * 0.06
X0 = g + np.array([0.0, 0.02, 0.0], dtype=np.float32)
PAIRS = np.array([[i, j] for i in range(8) for j in range(i + 1, 8)], dtype=np.int32)
pairs = wp.array(PAIRS, dtype=wp.int32)
rest = wp.array(np.linalg.norm(X0[PAIRS[:, 1]] - X0[PAIRS[:, 0]], axis=1).astype(np.float32), dtype=float)
FRAME = wp.vec3(0.03, 0.0, 0.0)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.array(np.tile([0.3, 0.0, -0.2], (8, 1)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(add_gravity, dim=8, inputs=[f])
            wp.launch(add_springs, dim=len(PAIRS), inputs=[x, v, pairs, rest, params], outputs=[f])
            wp.launch(add_ramp_contact, dim=8, inputs=[x, v, params], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(integrate, dim=8, inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(centre_loss, dim=8, inputs=[x, FRAME], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([60.0, 0.3])
FD_EPS = [0.1, 1e-3]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("frame loss", l, "d/d(stiffness, friction)", g)
