# correct: the grid update adds gravity to the momentum grid with an in-place += and then divides by the mass, but += is a differentiable accumulation and the division writes a separate velocity array
import numpy as np
import warp as wp

from _pic import NG, g2p, p2g, sample_particles

wp.init()

PARAMS0 = [0.8, 0.7]
FD_EPS = 3e-3


@wp.kernel
def p2g_weighted(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), dens: wp.array(dtype=float),
                 grid_m: wp.array2d(dtype=float), grid_mv: wp.array2d(dtype=wp.vec2)):
    p = wp.tid()
    g = x[p] * float(NG) - wp.vec2(0.5, 0.5)
    i = int(wp.floor(g[0]))
    j = int(wp.floor(g[1]))
    fx = g[0] - float(i)
    fy = g[1] - float(j)
    mass = dens[0] + dens[1] * x[p][1]
    for a in range(2):
        for b in range(2):
            w = wp.where(a == 0, 1.0 - fx, fx) * wp.where(b == 0, 1.0 - fy, fy)
            wp.atomic_add(grid_m, i + a, j + b, w * mass)
            wp.atomic_add(grid_mv, i + a, j + b, w * mass * v[p])


@wp.kernel
def grid_update(grid_m: wp.array2d(dtype=float), dt: float, grid_mv: wp.array2d(dtype=wp.vec2),
                grid_v: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    grid_mv[i, j] += dt * grid_m[i, j] * wp.vec2(0.0, -9.8)
    grid_v[i, j] = grid_mv[i, j] / (grid_m[i, j] + 0.05)


@wp.kernel
def velocity_misfit(v: wp.array(dtype=wp.vec2), v_obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    p = wp.tid()
    d = v[p] - v_obs[p]
    wp.atomic_add(loss, 0, wp.dot(d, d))


xs = sample_particles(n=40, seed=7)
x = wp.array(xs, dtype=wp.vec2)
v_p = wp.array(np.stack([np.sin(3.0 * xs[:, 1]), 0.5 * xs[:, 0] - 0.2], 1).astype(np.float32), dtype=wp.vec2)
v_obs = wp.array(np.stack([0.3 * np.ones(len(xs)), -0.1 * np.ones(len(xs))], 1).astype(np.float32), dtype=wp.vec2)


def evaluate(p):
    dens = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    shape = (NG + 1, NG + 1)
    grid_m = wp.zeros(shape, dtype=float, requires_grad=True)
    grid_mv = wp.zeros(shape, dtype=wp.vec2, requires_grad=True)
    grid_v = wp.zeros(shape, dtype=wp.vec2, requires_grad=True)
    v_back = wp.zeros(len(xs), dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(p2g_weighted, dim=len(xs), inputs=[x, v_p, dens], outputs=[grid_m, grid_mv])
        wp.launch(grid_update, dim=shape, inputs=[grid_m, 0.02], outputs=[grid_mv, grid_v])
        wp.launch(g2p, dim=len(xs), inputs=[x, grid_v], outputs=[v_back])
        wp.launch(velocity_misfit, dim=len(xs), inputs=[v_back, v_obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), dens.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
