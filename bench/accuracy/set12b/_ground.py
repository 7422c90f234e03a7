"""Penalty floor contact for particle systems."""
import warp as wp


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def floor_contact(x: wp.array(dtype=wp.vec3), floor_y: float, stiffness: float, f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    pen = floor_y - x[i][1]
    if pen > 0.0:
        wp.atomic_add(f, i, wp.vec3(0.0, stiffness * pen * pen, 0.0))
