# correct: the final positions the MSD read are wrapped into the box in place by an untaped launch, but only after tape.backward() has consumed them.
"""Langevin dynamics of a periodic LJ fluid: sensitivity of the mean squared
displacement after 40 steps to the friction gamma and the bath temperature kT
(a diffusion-coefficient design problem). The noise is pre-drawn so that the run
is reproducible.

After backward the final positions are wrapped into the box in place and written
as an XYZ frame.
"""
import numpy as np
import warp as wp

from _lj import lj_forces_pbc

N_SIDE = 3
N = N_SIDE ** 3
BOX = float((N / 0.5) ** (1.0 / 3.0))
DT = 0.005
N_STEPS = 40


@wp.kernel
def langevin_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                  xi: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), dt: float,
                  x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    gamma = prm[0]
    kT = prm[1]
    vn = v[i] * (1.0 - gamma * dt) + dt * f[i] + wp.sqrt(2.0 * gamma * kT * dt) * xi[i]
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def msd(x: wp.array(dtype=wp.vec3), x0: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - x0[i]
    wp.atomic_add(out, 0, wp.dot(d, d) / float(x.shape[0]))


@wp.kernel
def wrap_into_box(x: wp.array(dtype=wp.vec3), box: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = x[i]
    x_out[i] = wp.vec3(p[0] - box * wp.floor(p[0] / box), p[1] - box * wp.floor(p[1] / box),
                       p[2] - box * wp.floor(p[2] / box))


rng = np.random.default_rng(8)
g = (np.arange(N_SIDE) - 1.0) * BOX / N_SIDE  # lattice centred on the origin
X0 = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T.astype(np.float32)
V0 = rng.standard_normal(X0.shape).astype(np.float32)
XI = rng.standard_normal((N_STEPS, N, 3)).astype(np.float32)
FF = np.array([1.0, 1.0], dtype=np.float32)
PARAMS0 = np.array([1.0, 1.2])  # gamma, kT
FD_EPS = 1e-2


def write_xyz(x):
    return "\n".join([str(N), "frame"] + [f"Ar {a:.4f} {b:.4f} {c:.4f}" for a, b, c in x])


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ff = wp.array(FF, dtype=float)
    x0 = wp.array(X0, dtype=wp.vec3)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    noise = wp.array(XI, dtype=wp.vec3)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(N_STEPS):
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(lj_forces_pbc, dim=N, inputs=[x, ff, BOX, 2.5], outputs=[f])
            x_new, v_new = wp.empty_like(x), wp.empty_like(v)
            wp.launch(langevin_step, dim=N, inputs=[x, v, f, noise[s], prm, DT], outputs=[x_new, v_new])
            x, v = x_new, v_new
        wp.launch(msd, dim=N, inputs=[x, x0], outputs=[out])
    tape.backward(out)
    # trajectory output: wrap the last frame into the box (the gradient is already computed)
    wp.launch(wrap_into_box, dim=N, inputs=[x, BOX], outputs=[x])
    xyz = write_xyz(x.numpy())
    return float(out.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    m, g = evaluate(PARAMS0)
    print(f"MSD after {N_STEPS} steps = {m:.5f}; dMSD/d(gamma, kT) = {g}")
