# correct: contact compaction claims slots through a func with a func_replay; the remaining atomic_add / atomic_max only log statistics, their results unused
"""Spheres resting on a penalty floor: gradient of the total potential energy w.r.t. their heights.
Contacts are compacted into a list before the penalty is evaluated."""

import numpy as np
import warp as wp

import _contacts as contacts

N = 6
RADIUS = 0.1
STIFFNESS = 2.0e4
MASS = 0.05
PARAMS0 = np.array([0.05, 0.2, 0.02, 0.15, 0.08, 0.12])


@wp.kernel
def heights_to_positions(h: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = wp.vec3(0.25 * float(i), h[i], 0.0)


@wp.kernel
def detect_floor(
    x: wp.array(dtype=wp.vec3), radius: float, cl: contacts.ContactList, deep: wp.array(dtype=int), max_depth: wp.array(dtype=float)
):
    i = wp.tid()
    depth = radius - x[i][1]
    if depth > 0.0:
        s = contacts.claim(cl, i)
        cl.particle[s] = i
        cl.depth[s] = depth
        wp.atomic_max(max_depth, 0, depth)
        if depth > 0.5 * radius:
            wp.atomic_add(deep, 0, 1)


@wp.kernel
def gravity_energy(x: wp.array(dtype=wp.vec3), mass: float, energy: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(energy, 0, mass * 9.81 * x[i][1])


def evaluate(p):
    h = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    x = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    cl = contacts.contact_list(N)
    deep = wp.zeros(1, dtype=int)
    max_depth = wp.zeros(1, dtype=float)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(heights_to_positions, dim=N, inputs=[h], outputs=[x])
        wp.launch(detect_floor, dim=N, inputs=[x, RADIUS, cl, deep, max_depth])
        wp.launch(contacts.penalty_energy, dim=N, inputs=[cl, STIFFNESS], outputs=[energy])
        wp.launch(gravity_energy, dim=N, inputs=[x, MASS], outputs=[energy])
    tape.backward(energy)
    print(f"{cl.count.numpy()[0]} contacts, {deep.numpy()[0]} deeper than half a radius, max depth {max_depth.numpy()[0]:.3f}")
    return float(energy.numpy()[0]), h.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    e, g = evaluate(PARAMS0)
    print(f"energy {e:.5f}  d/dheights {np.round(g, 4)}")
