"""Granular drop: six grains thrown at the ground; contacts are gathered into a compact
list and a penalty energy is evaluated on it. Optimise the throw so that the grains hit
the ground as gently as possible while landing near x = 1."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N = 6
T_HIT = 0.45


@wp.kernel
def ballistic(x0: wp.array(dtype=wp.vec2d), aim: wp.array(dtype=wp.float64), t: wp.float64,
              x: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    spread = wp.float64(i) * aim[2]
    v = wp.vec2d(aim[0] + spread, aim[1] - spread)
    g = wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    x[i] = x0[i] + t * v + wp.float64(0.5) * t * t * g


@wp.kernel
def gather_contacts(x: wp.array(dtype=wp.vec2d), count: wp.array(dtype=wp.int32),
                    depth: wp.array(dtype=wp.float64), owner: wp.array(dtype=wp.int32)):
    i = wp.tid()
    pen = -x[i][1]
    if pen > wp.float64(0.0):
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        depth[slot] = pen
        owner[slot] = i


@wp.kernel
def contact_energy(depth: wp.array(dtype=wp.float64), count: wp.array(dtype=wp.int32), ke: wp.float64,
                   energy: wp.array(dtype=wp.float64)):
    c = wp.tid()
    if c < count[0]:
        d = depth[c]
        wp.atomic_add(energy, 0, ke * d * d * d)


@wp.kernel
def landing_spot(x: wp.array(dtype=wp.vec2d), energy: wp.array(dtype=wp.float64)):
    i = wp.tid()
    dx = x[i][0] - wp.float64(1.0)
    wp.atomic_add(energy, 0, dx * dx)


def throw_cost(p):
    x0 = wp.array(np.stack([np.linspace(0.0, 0.25, N), np.full(N, 0.4)], axis=1), dtype=wp.vec2d)
    aim = wp.array(p, dtype=wp.float64, requires_grad=True)
    x = wp.zeros(N, dtype=wp.vec2d, requires_grad=True)
    count = wp.zeros(1, dtype=wp.int32)
    depth = wp.zeros(N, dtype=wp.float64, requires_grad=True)
    owner = wp.full(N, -1, dtype=wp.int32)
    energy = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ballistic, dim=N, inputs=[x0, aim, wp.float64(T_HIT)], outputs=[x])
        wp.launch(gather_contacts, dim=N, inputs=[x], outputs=[count, depth, owner])
        wp.launch(contact_energy, dim=N, inputs=[depth, count, wp.float64(50.0)], outputs=[energy])
        wp.launch(landing_spot, dim=N, inputs=[x], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), aim.grad.numpy().copy(), int(count.numpy()[0])


PARAMS0 = np.array([1.6, 0.2, 0.15])
FD_EPS = 1e-6


def evaluate(p):
    e, g, _ = throw_cost(p)
    return e, g


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        e, g, n = throw_cost(p)
        p = p - 0.02 * g
        print(f"iter {it}: cost {e:.5f} contacts {n} aim {np.round(p, 4)}")
