# correct: a launch inside the tape uses record_tape=False, but it only derives rest lengths from the constant rest shape (no gradient flows through it)
"""A 2-D pressurised balloon (ring of particles joined by springs, internal
pressure pushing along the outward edge normals). Fit the internal pressure
and the skin stiffness so the inflated ring reaches a measured radius and
sag under gravity.
"""
import numpy as np
import warp as wp

N = 16
STEPS = 50
DT = 0.004


@wp.kernel
def rest_lengths(x_rest: wp.array(dtype=wp.vec2), rest: wp.array(dtype=float)):
    i = wp.tid()
    rest[i] = wp.length(x_rest[(i + 1) % N] - x_rest[i])


@wp.kernel
def skin_and_pressure(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rest: wp.array(dtype=float),
                      params: wp.array(dtype=float), f: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    j = (i + 1) % N
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    c = params[1] * (l - rest[i]) + 0.5 * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)
    # pressure on the edge, along its outward normal (counter-clockwise ring)
    normal = wp.vec2(d[1], -d[0])
    wp.atomic_add(f, i, 0.5 * params[0] * normal)
    wp.atomic_add(f, j, 0.5 * params[0] * normal)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2), dt: float,
              x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v1 = v[i] * 0.995 + dt * (f[i] / 0.01 + wp.vec2(0.0, -2.0))
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def shape_loss(x: wp.array(dtype=wp.vec2), radius: float, sag: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.length(x[i] - wp.vec2(0.0, -sag))
    wp.atomic_add(loss, 0, (r - radius) * (r - radius))


ang = np.linspace(0, 2 * np.pi, N, endpoint=False)
X_REST = wp.array(np.stack([0.2 * np.cos(ang), 0.2 * np.sin(ang)], 1).astype(np.float32), dtype=wp.vec2)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rest = wp.zeros(N, dtype=float)
    x = wp.clone(X_REST, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rest_lengths, dim=N, inputs=[X_REST], outputs=[rest], record_tape=False)
        for _ in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(skin_and_pressure, dim=N, inputs=[x, v, rest, params], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(integrate, dim=N, inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(shape_loss, dim=N, inputs=[x, 0.24, 0.01], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([6.0, 40.0])
FD_EPS = [0.01, 0.05]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("shape misfit", l, "d/d(pressure, stiffness)", g)
