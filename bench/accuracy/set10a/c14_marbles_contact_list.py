# correct: contacts are compacted with wp.atomic_add slots, but in an integer-only launch with record_tape=False; the taped force pass recomputes depths from x
"""Marbles rolling into a bowl-shaped (spherical cap) dish: find the common
push velocity that brings their mean resting spot to a target. Broad-phase
compaction writes the list of marbles touching the dish; the force kernel
runs over that list.
"""
import numpy as np
import warp as wp

N = 10
STEPS = 60
DT = 0.004
R = 0.02
BOWL_C = wp.constant(wp.vec3(0.0, 0.6, 0.0))
BOWL_R = 0.6
K = 30.0


@wp.kernel
def find_contacts(x: wp.array(dtype=wp.vec3), count: wp.array(dtype=wp.int32), ids: wp.array(dtype=wp.int32)):
    i = wp.tid()
    # inside the bowl sphere: contact when the marble pokes through its surface
    if wp.length(x[i] - BOWL_C) > BOWL_R - R - 0.01:
        slot = wp.atomic_add(count, 0, 1)
        ids[slot] = i


@wp.kernel
def bowl_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), count: wp.array(dtype=wp.int32),
                ids: wp.array(dtype=wp.int32), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    if s < count[0]:
        i = ids[s]
        d = x[i] - BOWL_C
        dist = wp.length(d)
        pen = dist + R - BOWL_R
        if pen > 0.0:
            n = d / dist
            wp.atomic_add(f, i, -(K * pen + 0.2 * wp.dot(v[i], n)) * n)


@wp.kernel
def roll(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
         x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + dt * (f[i] / 0.01 + wp.vec3(0.0, -9.81, 0.0))
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def push(p: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    v[wp.tid()] = wp.vec3(p[0], 0.0, p[1])


@wp.kernel
def spot_loss(x: wp.array(dtype=wp.vec3), spot: wp.vec3, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - spot
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N))


rng = np.random.default_rng(2)
ang = rng.uniform(0, 2 * np.pi, N)
X0 = np.stack([0.15 * np.cos(ang), np.full(N, 0.6 - np.sqrt((BOWL_R - R) ** 2 - 0.15 ** 2)) + 0.003,
               0.15 * np.sin(ang)], 1).astype(np.float32)
SPOT = wp.vec3(0.05, 0.05, 0.02)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(push, dim=N, inputs=[params], outputs=[v])
        for _ in range(STEPS):
            count = wp.zeros(1, dtype=wp.int32)
            ids = wp.zeros(N, dtype=wp.int32)
            wp.launch(find_contacts, dim=N, inputs=[x], outputs=[count, ids], record_tape=False)
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(bowl_forces, dim=N, inputs=[x, v, count, ids], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(roll, dim=N, inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(spot_loss, dim=N, inputs=[x, SPOT], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.4, -0.2])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("spot loss", l, "d/d push", g)
