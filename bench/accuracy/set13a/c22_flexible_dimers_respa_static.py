# correct: the RESPA bond sub-steps carry positions and velocities through a loop inside the kernel, but the sub-step count is a wp.constant, so the loop is unrolled and its adjoint replays every sub-step.
"""Flexible diatomics in an anharmonic trap, integrated with a two-level RESPA scheme:
the slow trap force kicks at the outer step, the stiff bond vibration is
sub-cycled with velocity Verlet inside the step kernel (one thread per molecule).
Sensitivity of the mean squared bond length (plus a tenth of the squared radius) after
12 outer steps to the bond stiffness k_b and the trap stiffness k.
"""
import numpy as np
import warp as wp

N_MOL = 16
N_STEPS = 12
DT = 0.05
N_INNER = wp.constant(4)  # bond sub-steps per outer step (unrolled by Warp)
B0 = 1.0
QUARTIC = 0.3


@wp.func
def trap_accel(p: wp.vec3, k: float):
    return -k * p - QUARTIC * wp.dot(p, p) * p


@wp.func
def bond_accel(r: wp.vec3, kb: float):
    # acceleration of atom 1 (unit mass) from the harmonic bond, r = x1 - x2
    return -kb * (wp.length(r) - B0) * wp.normalize(r)


@wp.kernel
def respa_step(x1: wp.array(dtype=wp.vec3), x2: wp.array(dtype=wp.vec3), v1: wp.array(dtype=wp.vec3),
               v2: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), dt: float,
               y1: wp.array(dtype=wp.vec3), y2: wp.array(dtype=wp.vec3),
               u1: wp.array(dtype=wp.vec3), u2: wp.array(dtype=wp.vec3)):
    m = wp.tid()
    kb = prm[0]
    k = prm[1]
    a1 = v1[m] + 0.5 * dt * trap_accel(x1[m], k)
    a2 = v2[m] + 0.5 * dt * trap_accel(x2[m], k)
    p1 = x1[m]
    p2 = x2[m]
    h = dt / float(N_INNER)
    for s in range(N_INNER):
        fb = bond_accel(p1 - p2, kb)
        a1 = a1 + 0.5 * h * fb
        a2 = a2 - 0.5 * h * fb
        p1 = p1 + h * a1
        p2 = p2 + h * a2
        fb = bond_accel(p1 - p2, kb)
        a1 = a1 + 0.5 * h * fb
        a2 = a2 - 0.5 * h * fb
    y1[m] = p1
    y2[m] = p2
    u1[m] = a1 + 0.5 * dt * trap_accel(p1, k)
    u2[m] = a2 + 0.5 * dt * trap_accel(p2, k)


@wp.kernel
def cloud_observable(x1: wp.array(dtype=wp.vec3), x2: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    # mean squared bond length + a tenth of the mean squared radius
    m = wp.tid()
    r = x1[m] - x2[m]
    wp.atomic_add(out, 0, (0.05 * (wp.dot(x1[m], x1[m]) + wp.dot(x2[m], x2[m])) + wp.dot(r, r)) / float(x1.shape[0]))


def initial_dimers(seed):
    rng = np.random.default_rng(seed)
    c = rng.normal(0.0, 1.0, (N_MOL, 3))
    u = rng.standard_normal((N_MOL, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    stretch = 1.0 + 0.25 * rng.standard_normal((N_MOL, 1))
    v = 0.3 * rng.standard_normal((N_MOL, 2, 3))
    return [a.astype(np.float32) for a in (c + 0.5 * stretch * u, c - 0.5 * stretch * u, v[:, 0], v[:, 1])]


X1, X2, V1, V2 = initial_dimers(29)
PARAMS0 = np.array([40.0, 2.0])  # k_b, k
FD_EPS = [1e-2, 1e-3]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = [wp.array(a, dtype=wp.vec3, requires_grad=True) for a in (X1, X2)]
    v = [wp.array(a, dtype=wp.vec3, requires_grad=True) for a in (V1, V2)]
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            xn = [wp.empty_like(x[0]), wp.empty_like(x[1])]
            vn = [wp.empty_like(v[0]), wp.empty_like(v[1])]
            wp.launch(respa_step, dim=N_MOL, inputs=[x[0], x[1], v[0], v[1], prm, DT], outputs=xn + vn)
            x, v = xn, vn
        wp.launch(cloud_observable, dim=N_MOL, inputs=[x[0], x[1]], outputs=[out])
    tape.backward(out)
    return float(out.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    R2, g = evaluate(PARAMS0)
    print(f"<r^2> + <b^2> = {R2:.5f}; d/d(k_b, k) = {g}")
