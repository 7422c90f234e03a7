# correct: smoke-plume wind estimation that rebinds the state to each step's fresh buffer and copies snapshots into separate frames
"""Estimate a uniform wind vector from a smoke plume (2-D semi-Lagrangian advection).

A chimney releases smoke at a fixed rate; the density is advected by the
unknown wind with bilinear back-tracing for 24 steps and compared with an
observed density image.
"""
import numpy as np
import warp as wp

NX, NY = 40, 40
NSTEPS = 24
DT_OVER_DX = 0.5
CHIMNEY = (10, 12)


@wp.func
def bilinear(f: wp.array2d(dtype=float), x: float, y: float):
    x = wp.clamp(x, 0.0, float(f.shape[0] - 1) - 1.0e-4)
    y = wp.clamp(y, 0.0, float(f.shape[1] - 1) - 1.0e-4)
    i = int(wp.floor(x))
    j = int(wp.floor(y))
    fx = x - float(i)
    fy = y - float(j)
    a = wp.lerp(f[i, j], f[i + 1, j], fx)
    b = wp.lerp(f[i, j + 1], f[i + 1, j + 1], fx)
    return wp.lerp(a, b, fy)


@wp.kernel
def advect_semi_lagrangian(rho: wp.array2d(dtype=float), wind: wp.array(dtype=wp.vec2), cfl: float,
                           ci: int, cj: int, rate: float, rho_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    v = wind[0]
    val = bilinear(rho, float(i) - cfl * v[0], float(j) - cfl * v[1])
    if i == ci and j == cj:
        val = val + rate
    rho_out[i, j] = val


@wp.kernel
def image_misfit(rho: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = rho[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


def run_plume(wind, frames=None):
    rho = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    for step in range(NSTEPS):
        rho_new = wp.empty_like(rho)
        wp.launch(advect_semi_lagrangian, dim=(NX, NY),
                  inputs=[rho, wind, DT_OVER_DX, CHIMNEY[0], CHIMNEY[1], 1.0], outputs=[rho_new])
        rho = rho_new
        if frames is not None and step % 8 == 7:
            wp.copy(frames[step // 8], rho)
    return rho


OBS = run_plume(wp.array([wp.vec2(1.3, 0.9)], dtype=wp.vec2))
PARAMS0 = [1.0, 0.6]
FD_EPS = 1e-3


def evaluate(p):
    wind = wp.array([wp.vec2(float(p[0]), float(p[1]))], dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    frames = [wp.zeros((NX, NY), dtype=float) for _ in range(NSTEPS // 8)]
    with tape:
        rho = run_plume(wind, frames)
        wp.launch(image_misfit, dim=(NX, NY), inputs=[rho, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.array(wind.grad.numpy()[0], dtype=np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4f} wind {p} dL/dwind {g}")
        p = p - 0.02 * g
