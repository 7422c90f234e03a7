"""Fit per-family spring stiffnesses (structural / shear / bend) of a cloth
patch to a measured drape. The stiffnesses are optimised in log space so
they stay positive; a small kernel maps them to per-spring coefficients.
"""
import numpy as np
import warp as wp

from _cloth_grid import GridCloth

DT = 0.008
STEPS = 30


@wp.kernel
def stiffness_from_log(log_k: wp.array(dtype=float), family: wp.array(dtype=wp.int32), ke: wp.array(dtype=float)):
    s = wp.tid()
    ke[s] = wp.exp(log_k[family[s]])


@wp.kernel
def springs(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), pairs: wp.array2d(dtype=wp.int32),
            rest: wp.array(dtype=float), ke: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = pairs[s, 0]
    j = pairs[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    c = ke[s] * (l - rest[s]) + 0.3 * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
         inv_mass: wp.array(dtype=float), dt: float, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    w = inv_mass[i]
    v1 = v[i]
    if w > 0.0:
        v1 = v[i] + (f[i] * w + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def drape_misfit(x: wp.array(dtype=wp.vec3), measured: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - measured[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


cloth = GridCloth(nx=4, ny=4, spacing=0.1, mass=0.05, bend=True)


def spring_families(c):
    fam = []
    for i, j in c.springs_np:
        (ri, ci), (rj, cj) = divmod(int(i), c.nx), divmod(int(j), c.nx)
        if abs(ri - rj) + abs(ci - cj) == 1:
            fam.append(0)  # structural
        elif abs(ri - rj) == 1 and abs(ci - cj) == 1:
            fam.append(1)  # shear
        else:
            fam.append(2)  # bend
    return wp.array(fam, dtype=wp.int32)


family = spring_families(cloth)
measured_np = cloth.positions_np.copy()
measured_np[:, 1] -= 0.02 * (np.arange(cloth.n) // cloth.nx)
measured_np[:, 2] += 0.01
measured = wp.array(measured_np, dtype=wp.vec3)


def evaluate(p):
    log_k = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ke = wp.zeros(cloth.n_springs, dtype=float, requires_grad=True)
    x = wp.array(cloth.positions_np, dtype=wp.vec3, requires_grad=True)
    v = wp.array(np.tile([0.0, 0.0, 0.3], (cloth.n, 1)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(stiffness_from_log, dim=cloth.n_springs, inputs=[log_k, family], outputs=[ke], record_tape=False)  # expect: truncation
        for _ in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(springs, dim=cloth.n_springs, inputs=[x, v, cloth.springs, cloth.rest, ke], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(step, dim=cloth.n, inputs=[x, v, f, cloth.inv_mass, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(drape_misfit, dim=cloth.n, inputs=[x, measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), log_k.grad.numpy().copy()


PARAMS0 = np.log(np.array([80.0, 30.0, 10.0]))
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("drape misfit", l, "d/d log k", g)
