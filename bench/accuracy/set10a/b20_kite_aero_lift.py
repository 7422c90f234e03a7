"""A tethered kite modelled as a few particles on springs (bridle + spar):
fit its drag and lift coefficients so that the kite's nose ends at the
observed position after launch in a steady wind.
"""
import numpy as np
import warp as wp

N = 4  # 0: anchor (fixed), 1..3 kite particles
STEPS = 50
DT = 0.005
WIND = wp.constant(wp.vec3(6.0, 0.0, 0.0))


@wp.func
def aero_force(v: wp.vec3, cd: float, cl: float):
    rel = WIND - v
    f = cd * wp.length(rel) * rel
    f[1] = f[1] + cl * wp.dot(rel, rel)  # expect: component_reassign
    return f


@wp.kernel
def tether_and_aero(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), links: wp.array2d(dtype=wp.int32),
                    rest: wp.array(dtype=float), coeff: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    i = links[s, 0]
    j = links[s, 1]
    d = x[j] - x[i]
    l = wp.length(d)
    fs = 400.0 * (l - rest[s]) * d / l + 2.0 * wp.dot(v[j] - v[i], d / l) * d / l
    wp.atomic_add(f, i, fs)
    wp.atomic_sub(f, j, fs)
    if s < 3:
        wp.atomic_add(f, s + 1, aero_force(v[s + 1], coeff[0], coeff[1]))


@wp.kernel
def advance(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
            x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = wp.vec3(0.0)
    if i > 0:
        v1 = v[i] + (f[i] / 0.05 + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def nose_loss(x: wp.array(dtype=wp.vec3), observed: wp.vec3, loss: wp.array(dtype=float)):
    d = x[3] - observed
    loss[0] = wp.dot(d, d)


X0 = np.array([[0, 0, 0], [0.6, 0.5, 0.0], [0.6, 0.6, 0.1], [0.7, 0.7, 0.0]], dtype=np.float32)
LINKS = np.array([[0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [0, 3]], dtype=np.int32)
links = wp.array(LINKS, dtype=wp.int32)
rest = wp.array(np.linalg.norm(X0[LINKS[:, 1]] - X0[LINKS[:, 0]], axis=1).astype(np.float32), dtype=float)
OBSERVED = wp.vec3(0.85, 0.55, 0.0)


def evaluate(p):
    coeff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(tether_and_aero, dim=len(LINKS), inputs=[x, v, links, rest, coeff], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(advance, dim=N, inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(nose_loss, dim=1, inputs=[x, OBSERVED], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coeff.grad.numpy().copy()


PARAMS0 = np.array([0.01, 0.012])
FD_EPS = 1e-4

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("nose miss", l, "d/d(cd, cl)", g)
