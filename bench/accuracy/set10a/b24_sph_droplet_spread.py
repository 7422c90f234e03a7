"""2-D SPH droplet spreading on a floor: fit the equation-of-state stiffness
and the viscosity so the droplet's width after a short time matches a
measurement. Cubic-spline kernel for density, its gradient for pressure,
XSPH-like velocity smoothing for viscosity, penalty floor.
"""
import numpy as np
import warp as wp

N = 12
H = 0.12
MASS = 0.01
REST_RHO = 1.0
DT = 0.004
STEPS = 25


@wp.func
def cubic_w(r: float):
    q = r / H
    sigma = 10.0 / (7.0 * 3.14159 * H * H)
    w = float(0.0)
    if q < 1.0:
        w = sigma * (1.0 - 1.5 * q * q + 0.75 * q * q * q)
    elif q < 2.0:
        w = sigma * 0.25 * (2.0 - q) * (2.0 - q) * (2.0 - q)
    return w


@wp.func
def cubic_dw(r: float):
    q = r / H
    sigma = 10.0 / (7.0 * 3.14159 * H * H)
    dw = float(0.0)
    if q < 1.0:
        dw = sigma * (-3.0 * q + 2.25 * q * q) / H
    elif q < 2.0:
        dw = -sigma * 0.75 * (2.0 - q) * (2.0 - q) / H
    return dw


@wp.kernel
def density(x: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(N):
        d = x[i] - x[j]
        r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
        acc += MASS * cubic_w(r)
    rho[i] = acc


@wp.kernel
def forces(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float),
           params: wp.array(dtype=float), a: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    pi = params[0] * (rho[i] - REST_RHO)
    acc = wp.vec2(0.0, -9.81)
    for j in range(N):
        if j != i:
            d = x[i] - x[j]
            r = wp.length(d) + 1e-6
            pj = params[0] * (rho[j] - REST_RHO)
            grad = cubic_dw(r) * d / r
            acc += -MASS * (pi / (rho[i] * rho[i]) + pj / (rho[j] * rho[j])) * grad
            acc += params[1] * MASS / rho[j] * (v[j] - v[i]) * cubic_w(r)
    floor = wp.max(-x[i][1], 0.0)
    acc += wp.vec2(0.0, 3000.0 * floor - 20.0 * wp.min(v[i][1], 0.0) * wp.sign(floor))
    a[i] = acc


@wp.kernel
def advance(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), a: wp.array(dtype=wp.vec2), dt: float,
            x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v1 = v[i] + dt * a[i]
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def spread(x: wp.array(dtype=wp.vec2), var: wp.array(dtype=float)):
    i = wp.tid()
    c = x[i][0] - 0.15
    wp.atomic_add(var, 0, c * c / float(N))


@wp.kernel
def width_loss(var: wp.array(dtype=float), measured: float, loss: wp.array(dtype=float)):
    # a uniform strip of width w has variance w^2 / 12
    d = var[0] - measured * measured / 12.0
    loss[0] = 1.0e4 * d * d


gx, gy = np.meshgrid(np.arange(4), np.arange(3))
X0 = np.stack([gx.ravel() * 0.1, 0.02 + gy.ravel() * 0.1], 1).astype(np.float32)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec2, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            rho = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(density, dim=N, inputs=[x], outputs=[rho])
            a = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
            wp.launch(forces, dim=N, inputs=[x, v, rho, params], outputs=[a])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(advance, dim=N, inputs=[x, v, a, DT], outputs=[x1, v1])
            x, v = x1, v1
        var = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(spread, dim=N, inputs=[x], outputs=[var])
        wp.launch(width_loss, dim=1, inputs=[var, 0.45], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([2.0, 0.5])
FD_EPS = [1e-2, 1e-2]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("width loss", l, "d/d(stiffness, viscosity)", g)
