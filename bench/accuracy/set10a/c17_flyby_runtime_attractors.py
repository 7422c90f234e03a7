# correct: a loop with a runtime bound (number of attractors) inside a @wp.func, but it only accumulates with += and returns the sum, which the caller uses
"""Gravity-assist flyby: a probe coasts past a runtime-sized list of moons;
estimate the moons' masses from where the probe ends up. Accelerations are
summed over the attractors in a @wp.func whose loop bound is the number of
moons passed at run time.
"""
import numpy as np
import warp as wp

DT = 0.01
STEPS = 80
SOFT2 = 0.01


@wp.func
def field(x: wp.vec2, moons: wp.array(dtype=wp.vec2), mass: wp.array(dtype=float), n_moons: int):
    acc = wp.vec2(0.0, 0.0)
    for k in range(n_moons):
        d = moons[k] - x
        r2 = wp.dot(d, d) + SOFT2
        acc += mass[k] * d / (r2 * wp.sqrt(r2))
    return acc


@wp.kernel
def coast(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), moons: wp.array(dtype=wp.vec2),
          mass: wp.array(dtype=float), n_moons: int, dt: float,
          x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    a = field(x[i], moons, mass, n_moons)
    # speed-dependent thruster trim, uses the field magnitude
    trim = 0.05 * wp.length(a)
    v1 = v[i] + dt * a * (1.0 - trim * 0.1)
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def end_loss(x: wp.array(dtype=wp.vec2), measured: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - measured[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


moons = wp.array([[0.5, 0.3], [1.0, -0.2], [1.4, 0.25]], dtype=wp.vec2)
N_PROBES = 3
X0 = np.array([[0.0, 0.0], [0.0, 0.1], [0.0, -0.1]], dtype=np.float32)
V0 = np.array([[1.0, 0.0], [1.0, -0.05], [1.0, 0.05]], dtype=np.float32)
measured = wp.array([[0.8, 0.15], [0.8, 0.1], [0.8, -0.05]], dtype=wp.vec2)


def evaluate(p):
    mass = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec2, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    n_moons = moons.shape[0]
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(coast, dim=N_PROBES, inputs=[x, v, moons, mass, n_moons, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(end_loss, dim=N_PROBES, inputs=[x, measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), mass.grad.numpy().copy()


PARAMS0 = np.array([0.02, 0.03, 0.015])
FD_EPS = 1e-4

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("end misfit", l, "d/d masses", g)
