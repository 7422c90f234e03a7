"""Infer the masses of three bodies from where a light probe ends up after a close flyby
(direct-summation gravity, kick-drift integration)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

STEPS = 40
DT = 0.01


@wp.kernel
def pair_accel(x: wp.array(dtype=wp.vec3d), m: wp.array(dtype=wp.float64), acc: wp.array(dtype=wp.vec3d)):
    i, j = wp.tid()
    d = x[j] - x[i]
    r2 = wp.dot(d, d)
    inv_r3 = wp.where(i == j, wp.float64(0.0), wp.float64(1.0) / (r2 * wp.sqrt(r2)))  # expect: nonfinite
    wp.atomic_add(acc, i, m[j] * inv_r3 * d)


@wp.kernel
def kick_drift(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), acc: wp.array(dtype=wp.vec3d),
               dt: wp.float64, x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    vn = v[i] + dt * acc[i]
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def probe_miss(x: wp.array(dtype=wp.vec3d), seen: wp.vec3d, loss: wp.array(dtype=wp.float64)):
    d = x[3] - seen
    loss[0] = wp.dot(d, d)


X0 = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [-1.0, -0.6, 0.1]])
V0 = np.array([[0.0, 0.0, 0.0], [0.0, 0.8, 0.0], [-0.7, 0.0, 0.0], [1.6, 0.9, 0.0]])
SEEN = wp.vec3d(-0.45, -0.25, 0.12)


def flyby(m_bodies):
    n = len(X0)
    m = wp.array(np.append(m_bodies, 1e-6), dtype=wp.float64, requires_grad=True)
    xs = [wp.array(X0, dtype=wp.vec3d, requires_grad=True)]
    vs = [wp.array(V0, dtype=wp.vec3d, requires_grad=True)]
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            acc = wp.zeros(n, dtype=wp.vec3d, requires_grad=True)
            wp.launch(pair_accel, dim=(n, n), inputs=[xs[k], m], outputs=[acc])
            xs.append(wp.zeros(n, dtype=wp.vec3d, requires_grad=True))
            vs.append(wp.zeros(n, dtype=wp.vec3d, requires_grad=True))
            wp.launch(kick_drift, dim=n, inputs=[xs[k], vs[k], acc, wp.float64(DT)], outputs=[xs[k + 1], vs[k + 1]])
        wp.launch(probe_miss, dim=1, inputs=[xs[-1], SEEN], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), m.grad.numpy()[:3].copy()


PARAMS0 = np.array([1.0, 0.3, 0.2])
FD_EPS = 1e-6


def evaluate(p):
    return flyby(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        l, g = flyby(p)
        print(f"iter {it}: miss {l:.6f}  grad {g}")
        if not np.all(np.isfinite(g)):
            print("non-finite gradient, stopping")
            break
        p = np.maximum(p - 0.2 * g, 1e-3)
