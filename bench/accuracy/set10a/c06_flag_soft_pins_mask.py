# correct: a float array read by taped kernels has no requires_grad, but it is constant data (pin weights), not a computed intermediate
"""A flag held by soft pins along its left edge flutters in the wind; fit
the wind velocity so the flag's trailing edge ends at the observed position.
Pin strength per particle is a float weight array built on the host.
"""
import numpy as np
import warp as wp

from _cloth_grid import GridCloth

DT = 0.008
STEPS = 30
K_PIN = 500.0


@wp.kernel
def cloth_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), springs: wp.array2d(dtype=wp.int32),
                 rest: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = springs[s, 0]
    j = springs[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    n = d / l
    c = 120.0 * (l - rest[s]) + 0.4 * wp.dot(v[j] - v[i], n)
    wp.atomic_add(f, i, c * n)
    wp.atomic_sub(f, j, c * n)


@wp.kernel
def pins_wind_integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                        x_rest: wp.array(dtype=wp.vec3), pin_weight: wp.array(dtype=float),
                        wind: wp.array(dtype=wp.vec3), dt: float,
                        x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    fp = pin_weight[i] * K_PIN * (x_rest[i] - x[i])
    rel = wind[0] - v[i]
    fa = 0.02 * wp.length(rel) * rel
    v1 = v[i] + dt * ((f[i] + fp + fa) / 0.03 + wp.vec3(0.0, -9.81, 0.0))
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def edge_loss(x: wp.array(dtype=wp.vec3), edge: wp.array(dtype=wp.int32), observed: wp.array(dtype=wp.vec3),
              loss: wp.array(dtype=float)):
    k = wp.tid()
    d = x[edge[k]] - observed[k]
    wp.atomic_add(loss, 0, wp.dot(d, d))


flag = GridCloth(nx=5, ny=4, spacing=0.1, mass=0.03, pin_top=False, bend=False)
x_rest = wp.array(flag.positions_np, dtype=wp.vec3)
weights = np.zeros(flag.n, dtype=np.float32)
weights[0::flag.nx] = 1.0  # left edge pinned
pin_weight = wp.array(weights, dtype=float)
edge = wp.array(list(range(flag.nx - 1, flag.n, flag.nx)), dtype=wp.int32)
obs = flag.positions_np[flag.nx - 1::flag.nx] + np.array([0.0, -0.05, 0.08], dtype=np.float32)
observed = wp.array(obs, dtype=wp.vec3)


def evaluate(p):
    wind = wp.array([np.asarray(p, dtype=np.float32)], dtype=wp.vec3, requires_grad=True)
    x = wp.clone(x_rest, requires_grad=True)
    v = wp.zeros(flag.n, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros_like(x)
            wp.launch(cloth_forces, dim=flag.n_springs, inputs=[x, v, flag.springs, flag.rest], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(pins_wind_integrate, dim=flag.n, inputs=[x, v, f, x_rest, pin_weight, wind, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(edge_loss, dim=flag.ny, inputs=[x, edge, observed], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), wind.grad.numpy()[0].copy()


PARAMS0 = np.array([1.0, 0.0, 3.0])
FD_EPS = 1e-2

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("edge miss", l, "d/d wind", g)
