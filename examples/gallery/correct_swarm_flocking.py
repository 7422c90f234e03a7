"""Steer a swarm towards a goal: learn per-agent thrust under a spring-to-centroid force.

Velocities are integrated in place with `+=`; positions get fresh buffers each step.
"""
import numpy as np
import warp as wp

AGENTS = 12
STEPS = 10
DT = 0.05


@wp.kernel
def cohesion(
    pos: wp.array(dtype=wp.vec2),
    centroid: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    wp.atomic_add(centroid, 0, pos[i] / float(AGENTS))


@wp.kernel
def accelerate(
    pos: wp.array(dtype=wp.vec2),
    centroid: wp.array(dtype=wp.vec2),
    thrust: wp.array(dtype=wp.vec2),
    dt: float,
    vel: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    to_center = centroid[0] - pos[i]
    pull = wp.dot(to_center, to_center) * to_center
    vel[i] += dt * (pull + thrust[i] * wp.cos(pos[i][0]))


@wp.kernel
def drift(
    pos: wp.array(dtype=wp.vec2),
    vel: wp.array(dtype=wp.vec2),
    dt: float,
    pos_next: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    pos_next[i] = pos[i] + dt * vel[i]


@wp.kernel
def goal_distance(pos: wp.array(dtype=wp.vec2), goal: wp.vec2, distance_cost: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - goal
    wp.atomic_add(distance_cost, 0, wp.dot(d, d))


def rollout(thrust_np, start_np):
    thrust = wp.array(thrust_np.astype(np.float32), dtype=wp.vec2, requires_grad=True)
    pos = wp.array(start_np, dtype=wp.vec2, requires_grad=True)
    vel = wp.zeros(AGENTS, dtype=wp.vec2, requires_grad=True)
    distance_cost = wp.zeros(1, dtype=float, requires_grad=True)
    recorder = wp.Tape()
    with recorder:
        for _ in range(STEPS):
            centroid = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
            wp.launch(cohesion, dim=AGENTS, inputs=[pos], outputs=[centroid])
            wp.launch(accelerate, dim=AGENTS, inputs=[pos, centroid, thrust, DT], outputs=[vel])  # note: TW101
            pos_next = wp.zeros_like(pos)
            wp.launch(drift, dim=AGENTS, inputs=[pos, vel, DT], outputs=[pos_next])
            wp.launch(goal_distance, dim=AGENTS, inputs=[pos_next, wp.vec2(2.0, 1.0)], outputs=[distance_cost])
            pos = pos_next
    recorder.backward(distance_cost)
    return float(distance_cost.numpy()[0]), thrust.grad.numpy().copy()


def start_positions():
    rng = np.random.default_rng(21)
    return rng.normal(scale=0.5, size=(AGENTS, 2)).astype(np.float32)


if __name__ == "__main__":
    wp.init()
    start = start_positions()
    thrust_np = np.zeros((AGENTS, 2))
    for it in range(5):
        cost, grad = rollout(thrust_np, start)
        print(f"iter {it}: cost={cost:.4f} |grad|={np.linalg.norm(grad):.4f}")
        thrust_np -= 0.5 * grad
