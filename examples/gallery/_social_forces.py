"""Social-force building blocks shared by the crowd scripts."""
import warp as wp


@wp.func
def comfort_energy(a: wp.vec2, b: wp.vec2, personal_space: float):
    r = wp.length(a - b)
    return wp.exp(-r / personal_space)


@wp.kernel
def crowd_discomfort(
    people: wp.array(dtype=wp.vec2),
    personal_space: float,
    total: wp.array(dtype=float),
):
    i, j = wp.tid()
    wp.atomic_add(total, 0, comfort_energy(people[i], people[j], personal_space))


@wp.kernel
def exit_attraction(people: wp.array(dtype=wp.vec2), exit_point: wp.vec2, total: wp.array(dtype=float)):
    i = wp.tid()
    d = people[i] - exit_point
    wp.atomic_add(total, 0, 0.2 * wp.dot(d, d))
