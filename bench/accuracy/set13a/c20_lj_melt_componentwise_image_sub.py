# correct: the force kernel changes the separation vector component by component for the minimum image, but with -= on each component (an accumulation, which Warp differentiates), not a reassignment.
"""Short NVE run of a compressed periodic LJ solid (27 atoms): sensitivity of the
final potential energy per atom to (epsilon, sigma). The force kernel applies the
minimum-image convention component by component, subtracting the image shift.
"""
import numpy as np
import warp as wp

N_SIDE = 3
N = N_SIDE ** 3
BOX = float((N / 0.9) ** (1.0 / 3.0))
RC = 2.0
DT = 0.003
N_STEPS = 20


@wp.kernel
def forces_pbc(x: wp.array(dtype=wp.vec3), ff: wp.array(dtype=float), box: float, rc: float,
               f: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i = wp.tid()
    fi = wp.vec3()
    for j in range(x.shape[0]):
        if j != i:
            d = x[i] - x[j]
            for k in range(3):
                d[k] -= box * wp.round(d[k] / box)
            r2 = wp.dot(d, d)
            if r2 < rc * rc:
                s6 = wp.pow(ff[1] * ff[1] / r2, 3.0)
                fi += d * (24.0 * ff[0] * (2.0 * s6 * s6 - s6) / r2)
                wp.atomic_add(e, 0, 2.0 * ff[0] * (s6 * s6 - s6) / float(x.shape[0]))
    f[i] = fi


@wp.kernel
def leapfrog(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
             x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vn = v[i] + dt * f[i]
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


rng = np.random.default_rng(19)
_g = (np.arange(N_SIDE) + 0.5) * BOX / N_SIDE
X0 = np.array(np.meshgrid(_g, _g, _g, indexing="ij")).reshape(3, -1).T
X0 = (X0 + 0.05 * rng.standard_normal(X0.shape)).astype(np.float32)
V0 = (1.2 * rng.standard_normal(X0.shape)).astype(np.float32)
V0 -= V0.mean(axis=0)
PARAMS0 = np.array([1.0, 1.0])
FD_EPS = 1e-3


def evaluate(p):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            e = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(forces_pbc, dim=N, inputs=[x, ff, BOX, RC], outputs=[f, e])
            x_new, v_new = wp.empty_like(x), wp.empty_like(v)
            wp.launch(leapfrog, dim=N, inputs=[x, v, f, DT], outputs=[x_new, v_new])
            x, v = x_new, v_new
        f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
        e = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(forces_pbc, dim=N, inputs=[x, ff, BOX, RC], outputs=[f, e])
    tape.backward(e)
    return float(e.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    U, g = evaluate(PARAMS0)
    print(f"U/N after {N_STEPS} steps = {U:.4f}; dU/d(eps, sigma) = {g}")
