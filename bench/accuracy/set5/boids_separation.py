# correct: pairwise spacing energy that also visits the self pair (d = 0), but the distance uses wp.length, whose adjoint is guarded at zero, and the self term is excluded
"""Boids-style separation: relax flock positions toward a preferred neighbour distance."""
import numpy as np
import warp as wp

ND = wp.constant(5)


@wp.kernel
def spacing_energy(pos: wp.array(dtype=wp.vec3), rest: wp.float32, energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    for j in range(ND):
        d = pos[i] - pos[j]
        r = wp.length(d)
        if i != j:
            wp.atomic_add(energy, 0, (r - rest) * (r - rest))


@wp.kernel
def altitude_band(pos: wp.array(dtype=wp.vec3), energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    h = pos[i][1] - 10.0
    wp.atomic_add(energy, 0, 0.1 * h * h)


def start_positions():
    rng = np.random.default_rng(0)
    return (rng.normal(size=(5, 3)) * np.array([2.0, 0.5, 2.0]) + np.array([0.0, 10.0, 0.0])).astype(np.float32)


def swarm_energy(pos):
    energy = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(spacing_energy, dim=ND, inputs=[pos, 1.5], outputs=[energy])
    wp.launch(altitude_band, dim=ND, inputs=[pos], outputs=[energy])
    return energy


def relax(iters=50, lr=0.05):
    pos = wp.array(start_positions(), dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            energy = swarm_energy(pos)
        tape.backward(energy)
        g = pos.grad.numpy().copy()
        history.append((pos.numpy().copy(), g))
        pos.assign(pos.numpy() - lr * g)
        tape.zero()
    print("energy", energy.numpy()[0])
    return history


if __name__ == "__main__":
    relax()
