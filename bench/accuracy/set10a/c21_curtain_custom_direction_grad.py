# correct: a @wp.func_grad custom adjoint on a spring-direction helper whose argument is also used elsewhere in the kernel; it accumulates with += and its math is exact
"""A curtain (mass-spring cloth hung from its top row) blown sideways by a
draught: fit the spring stiffness and the draught speed to a photo of the
curtain's hem. Spring directions come from a custom-gradient helper that
stays finite for collapsed springs.
"""
import numpy as np
import warp as wp

from _cloth_grid import GridCloth

DT = 0.008
STEPS = 30


@wp.func
def safe_dir(d: wp.vec3):
    return d / wp.sqrt(wp.dot(d, d) + 1.0e-12)


@wp.func_grad(safe_dir)
def adj_safe_dir(d: wp.vec3, adj_ret: wp.vec3):
    l = wp.sqrt(wp.dot(d, d) + 1.0e-12)
    n = d / l
    wp.adjoint[d] += (adj_ret - n * wp.dot(n, adj_ret)) / l


@wp.kernel
def curtain_springs(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), springs: wp.array2d(dtype=wp.int32),
                    rest: wp.array(dtype=float), params: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = springs[s, 0]
    j = springs[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = safe_dir(d)
    c = params[0] * (l - rest[s]) + 0.3 * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def draught_integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                      inv_mass: wp.array(dtype=float), params: wp.array(dtype=float), dt: float,
                      x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    w = inv_mass[i]
    v1 = wp.vec3(0.0)
    if w > 0.0:
        rel = wp.vec3(0.0, 0.0, params[1]) - v[i]
        v1 = v[i] + dt * (f[i] * w + wp.vec3(0.0, -9.81, 0.0) + 0.5 * rel)
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def hem_loss(x: wp.array(dtype=wp.vec3), hem: wp.array(dtype=wp.int32), photo: wp.array(dtype=wp.vec3),
             loss: wp.array(dtype=float)):
    k = wp.tid()
    d = x[hem[k]] - photo[k]
    wp.atomic_add(loss, 0, wp.dot(d, d))


curtain = GridCloth(nx=4, ny=5, spacing=0.1, mass=0.04, bend=True)
hem = wp.array(list(range(curtain.n - curtain.nx, curtain.n)), dtype=wp.int32)
photo_np = curtain.positions_np[-curtain.nx:] + np.array([0.0, 0.02, 0.1], dtype=np.float32)
photo = wp.array(photo_np, dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(curtain.positions_np, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(curtain.n, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(curtain_springs, dim=curtain.n_springs, inputs=[x, v, curtain.springs, curtain.rest, params],
                      outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(draught_integrate, dim=curtain.n, inputs=[x, v, f, curtain.inv_mass, params, DT],
                      outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(hem_loss, dim=curtain.nx, inputs=[x, hem, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([100.0, 1.5])
FD_EPS = [0.1, 1e-3]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("hem misfit", l, "d/d(stiffness, draught)", g)
