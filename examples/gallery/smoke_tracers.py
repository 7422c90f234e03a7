"""Tracer particles advected through a swirling velocity field.

We optimise the swirl strength so that the tracers end near a target ring.
"""
import numpy as np
import warp as wp

TRACER_COUNT = 16
SUBSTEPS = 5
FRAME_DT = 0.1


@wp.func
def swirl_velocity(p: wp.vec2, strength: float):
    r2 = wp.dot(p, p)
    falloff = wp.exp(-r2)
    return strength * falloff * wp.vec2(-p[1], p[0]) + wp.vec2(0.3 * wp.sin(p[1]), 0.0)


@wp.kernel
def advect_tracers(
    tracers: wp.array(dtype=wp.vec2),
    swirl: wp.array(dtype=float),
    dt: float,
    tracers_next: wp.array(dtype=wp.vec2),
):
    tid = wp.tid()
    p = tracers[tid]
    tracers_next[tid] = p + dt * swirl_velocity(p, swirl[0])


@wp.kernel
def ring_penalty(
    tracers: wp.array(dtype=wp.vec2),
    radius: float,
    penalty: wp.array(dtype=float),
):
    tid = wp.tid()
    p = tracers[tid]
    gap = wp.dot(p, p) - radius * radius
    wp.atomic_add(penalty, 0, gap * gap)


class TracerSim:
    def __init__(self, seed_points):
        self.seed_points = seed_points

    def simulate(self, swirl):
        states = [
            wp.array(self.seed_points, dtype=wp.vec2, requires_grad=True),
            wp.zeros(TRACER_COUNT, dtype=wp.vec2, requires_grad=True),
        ]
        for _ in range(SUBSTEPS):
            wp.launch(advect_tracers, dim=TRACER_COUNT, inputs=[states[0], swirl, FRAME_DT], outputs=[states[1]])
            states[0] = states[-1]  # expect: TW105  # expect: TW101
        return states[-1]


def main():
    wp.init()
    rng = np.random.default_rng(11)
    seed_points = rng.normal(scale=0.7, size=(TRACER_COUNT, 2)).astype(np.float32)
    sim = TracerSim(seed_points)

    swirl = wp.array([1.5], dtype=float, requires_grad=True)
    penalty = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        final = sim.simulate(swirl)
        wp.launch(ring_penalty, dim=TRACER_COUNT, inputs=[final, 0.8], outputs=[penalty])
    tape.backward(penalty)
    print("ring penalty", penalty.numpy()[0])
    print("d penalty / d swirl", swirl.grad.numpy()[0])


if __name__ == "__main__":
    main()
