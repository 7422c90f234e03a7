"""Reheating furnace enclosure: surface radiosities J = E + (1 - eps) F J
(grey diffuse walls); wall emissivity and load temperature fitted to
radiometer readings. The reported radiosities come from a direct solve; the
gradient is taken through Jacobi sweeps recorded on the tape."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SURF = 6
N_JACOBI = 12  # expect: fixed_point
rng = np.random.default_rng(4)
_F = 0.5 + rng.random((N_SURF, N_SURF))
np.fill_diagonal(_F, 0.0)
VIEW = (0.97 * _F / _F.sum(axis=1, keepdims=True)).astype(np.float32)
T_WALL = np.array([1.10, 1.05, 1.00, 1.12, 1.08, 0.0], np.float32)   # 1000 K units; last surface is the load


@wp.kernel
def emissive(p: wp.array(dtype=float), t_wall: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    t = t_wall[i]
    eps = p[0] * 0.1
    if i == N_SURF - 1:
        t = p[1]
        eps = 0.8
    e[i] = eps * 5.67 * t * t * t * t


@wp.kernel
def gather(view: wp.array2d(dtype=float), j_old: wp.array(dtype=float), fj: wp.array(dtype=float)):
    i, k = wp.tid()
    wp.atomic_add(fj, i, view[i, k] * j_old[k])


@wp.kernel
def jacobi(p: wp.array(dtype=float), e: wp.array(dtype=float), fj: wp.array(dtype=float), j_new: wp.array(dtype=float)):
    i = wp.tid()
    rho = 1.0 - p[0] * 0.1
    if i == N_SURF - 1:
        rho = 0.2
    j_new[i] = e[i] + rho * fj[i]


@wp.kernel
def radiometer_misfit(j: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (j[i] - obs[i]) / obs[i]
    wp.atomic_add(loss, 0, d * d)


def direct_solve(p):
    eps = np.full(N_SURF, 0.1 * p[0]); eps[-1] = 0.8
    t = T_WALL.astype(np.float64).copy(); t[-1] = p[1]
    e = eps * 5.67 * t ** 4
    return np.linalg.solve(np.eye(N_SURF) - np.diag(1.0 - eps) @ VIEW, e)


OBS = (direct_solve([1.5, 0.75]) * (1.0 + 0.02 * np.cos(np.arange(N_SURF)))).astype(np.float32)
PARAMS0 = np.array([1.2, 0.8])


def evaluate(p):
    j_ref = direct_solve(np.asarray(p, np.float64))
    report = float(np.sum(((j_ref - OBS) / OBS) ** 2))
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    view = wp.array(VIEW, dtype=float)
    e = wp.zeros(N_SURF, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(emissive, dim=N_SURF, inputs=[params, wp.array(T_WALL, dtype=float)], outputs=[e])
        j = e
        for _ in range(N_JACOBI):
            fj = wp.zeros(N_SURF, dtype=float, requires_grad=True)
            wp.launch(gather, dim=(N_SURF, N_SURF), inputs=[view, j], outputs=[fj])
            j_new = wp.zeros(N_SURF, dtype=float, requires_grad=True)
            wp.launch(jacobi, dim=N_SURF, inputs=[params, e, fj], outputs=[j_new])
            j = j_new
        wp.launch(radiometer_misfit, dim=N_SURF, inputs=[j, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return report, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        loss, g = evaluate(p)
        p -= 0.05 * g
    print(f"radiometer loss {loss:.6f}  wall eps={0.1 * p[0]:.3f}  load T={1000 * p[1]:.0f} K")
