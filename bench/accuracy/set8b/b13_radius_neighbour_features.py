"""Learn point positions so that the Gaussian weights of the neighbours of a probe match a budget.

Neighbours of the probe within a radius are gathered into a compact list
(one slot per neighbour); the objective is the sum of squared gathered
weights plus a spring that keeps the points near their rest positions.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N_PTS = 8
RADIUS = 0.6
BANDWIDTH = 0.35
PROBE = wp.vec2(0.0, 0.0)


@wp.kernel
def gather_neighbours(pts: wp.array(dtype=wp.vec2), probe: wp.vec2, count: wp.array(dtype=int),
                      weights: wp.array(dtype=float)):
    i = wp.tid()
    d = pts[i] - probe
    r2 = wp.dot(d, d)
    if r2 < RADIUS * RADIUS:
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        weights[slot] = wp.exp(-r2 / (BANDWIDTH * BANDWIDTH))


@wp.kernel
def gathered_energy(weights: wp.array(dtype=float), count: wp.array(dtype=int), loss: wp.array(dtype=float)):
    s = wp.tid()
    if s < count[0]:
        wp.atomic_add(loss, 0, weights[s] * weights[s])


@wp.kernel
def rest_spring(pts: wp.array(dtype=wp.vec2), rest: wp.array(dtype=wp.vec2), k: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pts[i] - rest[i]
    wp.atomic_add(loss, 0, 0.5 * k * wp.dot(d, d))


REST = np.array([[0.1, 0.05], [-0.2, 0.3], [0.4, -0.1], [0.9, 0.8], [-0.3, -0.35], [0.05, -0.45],
                 [-0.8, 0.2], [0.25, 0.35]])
PARAMS0 = (REST + 0.03).ravel()


def energy_and_grad(p):
    pts = wp.array(np.asarray(p, dtype=np.float32).reshape(N_PTS, 2), dtype=wp.vec2, requires_grad=True)
    rest = wp.array(REST.astype(np.float32), dtype=wp.vec2)
    count = wp.zeros(1, dtype=int)
    weights = wp.zeros(N_PTS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gather_neighbours, dim=N_PTS, inputs=[pts, PROBE], outputs=[count, weights])
        wp.launch(gathered_energy, dim=N_PTS, inputs=[weights, count], outputs=[loss])
        wp.launch(rest_spring, dim=N_PTS, inputs=[pts, rest, 0.5], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), pts.grad.numpy().ravel().astype(np.float64)


def evaluate(p):
    return energy_and_grad(p)


FD_MAX_COMPONENTS = 16

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        e, g = energy_and_grad(p)
        p -= 0.2 * g
        if it % 10 == 0:
            print(f"iter {it:2d} energy {e:.5f}")
    print("points", np.round(p.reshape(N_PTS, 2), 3).tolist())
