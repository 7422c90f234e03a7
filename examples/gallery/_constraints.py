"""Box and ball constraints: hard projections after an optimizer step, or a soft box inside the model."""

import warp as wp


@wp.func
def clamp_to(v: float, lo: float, hi: float):
    return wp.min(wp.max(v, lo), hi)


@wp.kernel
def project_box(params: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    params[i] = clamp_to(params[i], lo, hi)  # note: TW104


@wp.kernel
def squash_box(x: wp.array(dtype=float), half_width: float):
    # A smooth box: differentiable, but the in-place write leaves its adjoint only the squashed value.
    i = wp.tid()
    x[i] = half_width * wp.tanh(x[i] / half_width)  # expect[soft_box_on_tape]: TW104


@wp.kernel
def project_ball(points: wp.array(dtype=wp.vec3), radius: float):
    # Compiled with this module by every program that imports it, launched by none.
    i = wp.tid()
    p = points[i]
    if wp.length(p) > radius:
        points[i] = wp.normalize(p) * radius  # note: TW104


@wp.kernel
def descend(params: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    params[i] = params[i] - lr * grad[i]
