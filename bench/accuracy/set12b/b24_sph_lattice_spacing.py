import numpy as np
import warp as wp

wp.init()

H = 0.3
RHO0 = 1.0
MASS = 0.012
PARAMS0 = [1.0, 0.05]
SIDE = 5


@wp.func
def wendland_c2(r: float):
    q = r / H
    if q >= 1.0:
        return 0.0
    t = 1.0 - q
    return 7.0 / (wp.pi * H * H) * t * t * t * t * (1.0 + 4.0 * q)


@wp.kernel
def lattice(X: wp.array(dtype=wp.vec3), shape: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = X[i]
    x[i] = wp.vec3(shape[0] * p[0] + shape[1] * p[1], shape[0] * p[1], 0.0)


@wp.kernel
def density(grid: wp.uint64, x: wp.array(dtype=wp.vec3), rho: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in wp.hash_grid_query(grid, x[i], H):
        d = x[i] - x[j]
        r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
        s += MASS * wendland_c2(r)
    rho[i] = s


@wp.kernel
def eos_energy(rho: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = rho[i] / RHO0 - 1.0
    wp.atomic_add(loss, 0, e * e)


g = np.arange(SIDE) * 0.1
X_np = np.stack([*np.meshgrid(g, g), np.zeros((SIDE, SIDE))], -1).reshape(-1, 3).astype(np.float32)
X = wp.array(X_np, dtype=wp.vec3)


def evaluate(p):
    shape = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    n = len(X_np)
    x = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    rho = wp.zeros(n, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    grid = wp.HashGrid(8, 8, 1)
    tape = wp.Tape()
    with tape:
        wp.launch(lattice, dim=n, inputs=[X, shape], outputs=[x])
        grid.build(x, H)
        wp.launch(density, dim=n, inputs=[grid.id, x], outputs=[rho])
        wp.launch(eos_energy, dim=n, inputs=[rho], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), shape.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
