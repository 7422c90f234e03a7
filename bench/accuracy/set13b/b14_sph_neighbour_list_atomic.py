"""SPH dam break with a per-step neighbour list: calibrate stiffness and viscosity.

Every step rebuilds a neighbour list (rows padded with -1); the pair kernel
appends each neighbour with an atomic counter and stores the pair distance
next to its index. The pressure/viscosity forces loop over the list
(helper _sph.py for density, kernels and integration).
"""
import numpy as np
import warp as wp

import _sph as sph

DT = 2.0e-3
STEPS = 40
MAXN = 36
REST_RHO = 4.0


@wp.kernel
def build_pairs(x: wp.array(dtype=wp.vec2), count: wp.array(dtype=wp.int32), nbr: wp.array2d(dtype=wp.int32),
                pair_r: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == j:
        return
    d = x[i] - x[j]
    r2 = wp.dot(d, d)
    if r2 < sph.H * sph.H:
        slot = wp.atomic_add(count, i, 1)  # expect: atomic_replay
        nbr[i, slot] = j
        pair_r[i, slot] = wp.sqrt(r2)


@wp.kernel
def forces_from_pairs(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float),
                      nbr: wp.array2d(dtype=wp.int32), pair_r: wp.array2d(dtype=float),
                      prm: wp.array(dtype=float), acc: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p_i = prm[0] * (rho[i] - REST_RHO)
    a = wp.vec2(0.0, 0.0)
    for k in range(MAXN):
        j = nbr[i, k]
        if j >= 0:
            r = pair_r[i, k]
            p_j = prm[0] * (rho[j] - REST_RHO)
            dir = (x[i] - x[j]) / r
            a += -sph.MASS * (p_i / (rho[i] * rho[i]) + p_j / (rho[j] * rho[j])) * sph.spiky_grad_coef(r) * dir
            a += prm[1] * sph.MASS / (rho[i] * rho[j]) * sph.visc_lap(r) * (v[j] - v[i])
    acc[i] = a


N = 36


def collapse(prm, stats=None):
    x = wp.array(sph.block(), dtype=wp.vec2, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    for s in range(STEPS):
        count = wp.zeros(N, dtype=wp.int32)
        nbr = wp.full((N, MAXN), -1, dtype=wp.int32)
        pair_r = wp.ones((N, MAXN), dtype=float, requires_grad=True)
        rho = wp.zeros(N, dtype=float, requires_grad=True)
        acc = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
        wp.launch(build_pairs, dim=(N, N), inputs=[x, count], outputs=[nbr, pair_r])
        wp.launch(sph.density, dim=N, inputs=[x], outputs=[rho])
        wp.launch(forces_from_pairs, dim=N, inputs=[x, v, rho, nbr, pair_r, prm], outputs=[acc])
        if stats is not None:
            stats.append(float((nbr.numpy() >= 0).sum(axis=1).mean()))
        x_new = wp.zeros_like(x)
        v_new = wp.zeros_like(v)
        wp.launch(sph.integrate, dim=N, inputs=[x, v, acc, DT], outputs=[x_new, v_new])
        x, v = x_new, v_new
    return x


TARGET = collapse(wp.array([40.0, 0.8], dtype=float))
PARAMS0 = [30.0, 0.5]
FD_EPS = [1e-2, 1e-2]


def evaluate(p, stats=None):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = collapse(prm, stats)
        wp.launch(sph.position_misfit, dim=N, inputs=[xf, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        stats = []
        f, g = evaluate(p, stats)
        print(f"iter {it}: loss {f:.4e}  mean neighbours {np.mean(stats):.1f}  k={p[0]:.3f} mu={p[1]:.3f}  grad {g}")
        p = p - np.array([1.0, 0.01]) * g / (np.abs(g).max() + 1e-12)
