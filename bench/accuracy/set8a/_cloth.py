"""Small cloth patch helpers: grid construction and the force / integration kernels."""
import numpy as np
import warp as wp


def make_patch(nx, ny, spacing, height):
    xs = []
    for j in range(ny):
        for i in range(nx):
            xs.append([i * spacing, height + 0.02 * ((i + j) % 2), j * spacing])
    edges = []
    for j in range(ny):
        for i in range(nx):
            a = j * nx + i
            if i + 1 < nx:
                edges.append([a, a + 1])
            if j + 1 < ny:
                edges.append([a, a + nx])
            if i + 1 < nx and j + 1 < ny:
                edges.append([a, a + nx + 1])
    return np.array(xs), np.array(edges, dtype=np.int32)


@wp.kernel
def spring_forces(
    x: wp.array(dtype=wp.vec3d),
    edges: wp.array(dtype=wp.vec2i),
    rest: wp.array(dtype=wp.float64),
    params: wp.array(dtype=wp.float64),
    f: wp.array(dtype=wp.vec3d),
):
    e = wp.tid()
    a = edges[e][0]
    b = edges[e][1]
    d = x[b] - x[a]
    l = wp.length(d)
    fs = params[0] * (l - rest[e]) * d / l
    wp.atomic_add(f, a, fs)
    wp.atomic_sub(f, b, fs)


@wp.kernel
def ground_contact(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d),
                   params: wp.array(dtype=wp.float64), f: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    pen = -x[i][1]
    if pen > wp.float64(0.0):
        fn = params[1] * pen * pen - wp.float64(2.0) * v[i][1] * pen
        wp.atomic_add(f, i, wp.vec3d(wp.float64(0.0), fn, wp.float64(0.0)))


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), f: wp.array(dtype=wp.vec3d),
              inv_mass: wp.float64, dt: wp.float64,
              x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    g = wp.vec3d(wp.float64(0.0), wp.float64(-9.81), wp.float64(0.0))
    vn = v[i] + dt * (f[i] * inv_mass + g)
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def drape_loss(x: wp.array(dtype=wp.vec3d), target: wp.array(dtype=wp.vec3d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))
