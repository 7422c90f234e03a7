"""Set the strengths of three smoke emitters in a 2-D stirred tank so that the
density field after a few seconds matches a target pattern.

First-order upwind advection in a fixed swirl velocity field plus explicit
diffusion; the per-cell squared error is computed on the grid and the
reported objective is its mean over the cells.
"""
import numpy as np
import warp as wp

N = 16
STEPS = 20
DT = 0.02
KAPPA = 0.002
H = 1.0 / N


@wp.func
def swirl(i: int, j: int):
    x = (float(i) + 0.5) * H - 0.5
    y = (float(j) + 0.5) * H - 0.5
    return wp.vec2(-y, x) * 1.5


@wp.func
def cell(rho: wp.array2d(dtype=float), i: int, j: int):
    return rho[wp.clamp(i, 0, N - 1), wp.clamp(j, 0, N - 1)]


@wp.kernel
def advect_diffuse(rho: wp.array2d(dtype=float), emitters: wp.array(dtype=wp.vec2i), strength: wp.array(dtype=float),
                   dt: float, rho_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u = swirl(i, j)
    c = rho[i, j]
    ddx = wp.where(u[0] > 0.0, c - cell(rho, i - 1, j), cell(rho, i + 1, j) - c)
    ddy = wp.where(u[1] > 0.0, c - cell(rho, i, j - 1), cell(rho, i, j + 1) - c)
    lap = cell(rho, i - 1, j) + cell(rho, i + 1, j) + cell(rho, i, j - 1) + cell(rho, i, j + 1) - 4.0 * c
    src = float(0.0)
    for e in range(3):
        if emitters[e][0] == i and emitters[e][1] == j:
            src += strength[e]
    rho_out[i, j] = c - dt / H * (u[0] * ddx + u[1] * ddy) + dt * KAPPA / (H * H) * lap + dt * src


@wp.kernel
def cell_error(rho: wp.array2d(dtype=float), target: wp.array2d(dtype=float), err: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = rho[i, j] - target[i, j]
    err[i, j] = d * d


yy, xx = np.mgrid[0:N, 0:N]
TARGET_NP = (0.8 * np.exp(-((xx - 10) ** 2 + (yy - 5) ** 2) / 8.0)).astype(np.float32)
target = wp.array(TARGET_NP, dtype=float)
emitters = wp.array([[4, 4], [11, 6], [8, 12]], dtype=wp.vec2i)


def evaluate(p):
    strength = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rho = wp.zeros((N, N), dtype=float, requires_grad=True)
    err = wp.zeros((N, N), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            rho_next = wp.zeros_like(rho)
            wp.launch(advect_diffuse, dim=(N, N), inputs=[rho, emitters, strength, DT], outputs=[rho_next])
            rho = rho_next
        wp.launch(cell_error, dim=(N, N), inputs=[rho, target], outputs=[err])
    objective = err.numpy().mean()
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    return float(objective), strength.grad.numpy().copy()


PARAMS0 = np.array([3.0, 6.0, 2.0])
FD_EPS = 0.01

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        l, g = evaluate(p)
        print(f"iter {it}: mean sq. error {l:.6f}  grad {g}")
        p = p - 2.0 * g
