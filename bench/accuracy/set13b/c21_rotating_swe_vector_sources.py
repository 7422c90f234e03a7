# correct: rotating shallow-water basin whose Coriolis and wind-stress source terms are added as whole vec3 increments
"""Wind stress and Coriolis parameter of a rotating shallow-water basin.

2-D nonlinear shallow water on a doubly periodic 20 x 20 grid with state
U = (h, hu, hv) stored as wp.vec3; Lax-Friedrichs fluxes, Coriolis rotation
and a uniform wind stress in x as source terms. The surface height at a few
tide stations after 40 steps is compared with observations.
"""
import numpy as np
import warp as wp

NX = NY = 20
NSTEPS = 40
DT = 0.08
G = 9.81
STATIONS = np.array([[5, 5], [14, 5], [5, 14], [14, 14], [10, 3], [3, 10]], dtype=np.int32)


@wp.func
def flux_x(U: wp.vec3):
    u = U[1] / U[0]
    return wp.vec3(U[1], U[1] * u + 0.5 * G * U[0] * U[0], U[2] * u)


@wp.func
def flux_y(U: wp.vec3):
    v = U[2] / U[0]
    return wp.vec3(U[2], U[1] * v, U[2] * v + 0.5 * G * U[0] * U[0])


@wp.kernel
def gaussian_bump(U: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    dx = float(i) - 9.5
    dy = float(j) - 9.5
    U[i, j] = wp.vec3(1.0 + 0.2 * wp.exp(-(dx * dx + dy * dy) / 8.0), 0.0, 0.0)


@wp.kernel
def lf_rotating(U: wp.array2d(dtype=wp.vec3), prm: wp.array(dtype=float), dt: float, U_out: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    ip = (i + 1) % NX
    im = (i + NX - 1) % NX
    jp = (j + 1) % NY
    jm = (j + NY - 1) % NY
    avg = 0.25 * (U[ip, j] + U[im, j] + U[i, jp] + U[i, jm])
    Un = avg - 0.5 * dt * (flux_x(U[ip, j]) - flux_x(U[im, j])) - 0.5 * dt * (flux_y(U[i, jp]) - flux_y(U[i, jm]))
    f = prm[1]
    Uc = U[i, j]
    Un = Un + dt * wp.vec3(0.0, f * Uc[2], -f * Uc[1])
    Un = Un + dt * wp.vec3(0.0, prm[0], 0.0)
    U_out[i, j] = Un


@wp.kernel
def station_misfit(U: wp.array2d(dtype=wp.vec3), st: wp.array2d(dtype=wp.int32), obs: wp.array(dtype=float),
                   loss: wp.array(dtype=float)):
    k = wp.tid()
    d = U[st[k, 0], st[k, 1]][0] - obs[k]
    wp.atomic_add(loss, 0, 1000.0 * d * d)


ST = wp.array(STATIONS, dtype=wp.int32)


def basin(prm):
    U = wp.zeros((NX, NY), dtype=wp.vec3, requires_grad=True)
    wp.launch(gaussian_bump, dim=(NX, NY), inputs=[], outputs=[U])
    for _ in range(NSTEPS):
        U_new = wp.zeros_like(U)
        wp.launch(lf_rotating, dim=(NX, NY), inputs=[U, prm, DT], outputs=[U_new])
        U = U_new
    return U


OBS = wp.array(basin(wp.array([0.02, 0.5], dtype=float)).numpy()[STATIONS[:, 0], STATIONS[:, 1], 0], dtype=float)
PARAMS0 = [0.01, 0.3]
FD_EPS = 1e-2


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        U = basin(prm)
        wp.launch(station_misfit, dim=len(STATIONS), inputs=[U, ST, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  tau_x {p[0]:.4f} f {p[1]:.4f}  grad {g}")
        p = p - np.array([0.002, 0.05]) * g / (np.abs(g).max() + 1e-12)
