"""Hanging rope: tune the spring stiffness to minimise a control-effort cost.

Positions and velocities get fresh buffers every step; the force buffer is a
single scratch array cleared at the start of each step.
"""
import numpy as np
import warp as wp

SEGMENTS = 12
STEPS = 10
DT = 0.02


@wp.func
def spring_force(a: wp.vec3, b: wp.vec3, rest: float, k: float):
    d = b - a
    l = wp.length(d)
    return k * (l - rest) * d / l


@wp.kernel
def accumulate_springs(
    pos: wp.array(dtype=wp.vec3),
    stiffness: wp.array(dtype=float),
    rest: float,
    forces: wp.array(dtype=wp.vec3),
):
    s = wp.tid()
    f = spring_force(pos[s], pos[s + 1], rest, stiffness[0])
    wp.atomic_add(forces, s, f)
    wp.atomic_sub(forces, s + 1, f)


@wp.kernel
def integrate(
    pos: wp.array(dtype=wp.vec3),
    vel: wp.array(dtype=wp.vec3),
    forces: wp.array(dtype=wp.vec3),
    dt: float,
    pos_out: wp.array(dtype=wp.vec3),
    vel_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    if i == 0:
        pos_out[i] = pos[i]
        vel_out[i] = wp.vec3()
        return
    v = vel[i] + dt * (forces[i] + wp.vec3(0.0, -9.8, 0.0))
    vel_out[i] = v
    pos_out[i] = pos[i] + dt * v


@wp.kernel
def effort(forces: wp.array(dtype=wp.vec3), dt: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    f = forces[i]
    wp.atomic_add(cost, 0, dt * wp.dot(f, f))


def simulate(stiffness_value):
    stiffness = wp.array([stiffness_value], dtype=float, requires_grad=True)
    xs = np.linspace(0.0, 1.1, SEGMENTS + 1)
    pos = wp.array(np.stack([xs, np.zeros_like(xs), np.zeros_like(xs)], 1), dtype=wp.vec3, requires_grad=True)
    vel = wp.zeros(SEGMENTS + 1, dtype=wp.vec3, requires_grad=True)
    forces = wp.zeros(SEGMENTS + 1, dtype=wp.vec3, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)

    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            forces.zero_()  # expect: TW103
            wp.launch(accumulate_springs, dim=SEGMENTS, inputs=[pos, stiffness, 1.0 / SEGMENTS], outputs=[forces])
            pos_next = wp.empty_like(pos)
            vel_next = wp.empty_like(vel)
            wp.launch(integrate, dim=SEGMENTS + 1, inputs=[pos, vel, forces, DT], outputs=[pos_next, vel_next])
            wp.launch(effort, dim=SEGMENTS + 1, inputs=[forces, DT], outputs=[cost])
            pos, vel = pos_next, vel_next
    return tape, cost, stiffness


if __name__ == "__main__":
    wp.init()
    tape, cost, stiffness = simulate(40.0)
    tape.backward(cost)
    print("effort", cost.numpy()[0], "d effort / d stiffness", stiffness.grad.numpy()[0])
