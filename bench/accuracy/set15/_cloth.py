"""An 8 x 8 mass-spring cloth patch hanging from its top row (structural springs only)."""
import numpy as np
import warp as wp

N_SIDE = 8
N_PART = N_SIDE * N_SIDE
REST = 0.05  # m
MASS = 0.01  # kg
DT = 1.0 / 120.0


class ClothState:
    def __init__(self):
        self.x = wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True)
        self.v = wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True)


def rest_positions():
    i, j = np.meshgrid(np.arange(N_SIDE), np.arange(N_SIDE), indexing="ij")
    # the patch starts tilted 40 degrees out of the vertical plane, so it swings when released
    x = j * REST
    y = -i * REST * np.cos(0.7)
    z = i * REST * np.sin(0.7)
    return np.stack([x, y, z], -1).reshape(-1, 3).astype(np.float32)


@wp.func
def spring_force(xi: wp.vec3, xj: wp.vec3, vi: wp.vec3, vj: wp.vec3, k: float, c: float):
    d = xj - xi
    l = wp.length(d)
    n = d / l
    return (k * (l - REST) + c * wp.dot(vj - vi, n)) * n


@wp.kernel
def cloth_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float),
               x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    # prm: spring stiffness k [N/m], spring damping c [N s/m]
    p = wp.tid()
    i = p // N_SIDE
    j = p % N_SIDE
    if i == 0:
        x_out[p] = x[p]
        v_out[p] = wp.vec3(0.0, 0.0, 0.0)
    else:
        f = wp.vec3(0.0, -9.81 * MASS, 0.0)
        f += spring_force(x[p], x[p - N_SIDE], v[p], v[p - N_SIDE], prm[0], prm[1])
        if i < N_SIDE - 1:
            f += spring_force(x[p], x[p + N_SIDE], v[p], v[p + N_SIDE], prm[0], prm[1])
        if j > 0:
            f += spring_force(x[p], x[p - 1], v[p], v[p - 1], prm[0], prm[1])
        if j < N_SIDE - 1:
            f += spring_force(x[p], x[p + 1], v[p], v[p + 1], prm[0], prm[1])
        vn = v[p] + DT * f / MASS
        v_out[p] = vn
        x_out[p] = x[p] + DT * vn


@wp.kernel
def position_error(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    p = wp.tid()
    d = (x[p] - target[p]) * 100.0
    wp.atomic_add(loss, 0, wp.dot(d, d))
